import { z } from 'zod';
import { actionItemSchema } from './action-items.js';
import { publicUserSchema } from './auth.js';
import { userSettingsSchema } from './user-settings.js';
import { webhookSchema } from './webhooks.js';

/** `GET /v1/account/export`: the whole account as a zip (docs/account-and-plans.md); cookie or bearer. */
export const ACCOUNT_EXPORT_PATH = '/v1/account/export';

/** Name of the account's own file inside the export zip; meetings are `meetings/<day>-<title>-<id>.json|md`. */
export const ACCOUNT_EXPORT_ACCOUNT_FILE = 'account.json';
/** The export zip's action items (docs/action-items.md): every item, as `GET /v1/action-items` answers them. */
export const ACCOUNT_EXPORT_ACTION_ITEMS_FILE = 'action-items.json';
export const accountExportActionItemsSchema = z.array(actionItemSchema);

/** `account.json` in the export zip: who the account is, its settings, plans and outgoing webhooks. */
export const accountExportSchema = z.object({
  /** Epoch ms when the export was written. */
  exportedAt: z.number().int(),
  user: publicUserSchema.extend({
    /** Epoch ms. */
    createdAt: z.number().int(),
    referralCode: z.string(),
  }),
  settings: userSettingsSchema,
  subscriptions: z.array(
    z.object({
      planId: z.string(),
      status: z.string(),
      /** Epoch seconds; 0 when unknown. */
      currentPeriodEnd: z.number().int(),
      cancelAtPeriodEnd: z.boolean(),
      /** Epoch ms. */
      createdAt: z.number().int(),
    }),
  ),
  /** Receivers and events; their signing secrets are left out of a file that may be passed around. */
  webhooks: z.array(webhookSchema.pick({ url: true, events: true, createdAt: true })),
  /** How many meetings the zip holds, each as JSON and Markdown. */
  meetings: z.number().int(),
});
export type AccountExport = z.infer<typeof accountExportSchema>;

/**
 * What the person types to confirm deleting the account: its e-mail address, compared without case or
 * surrounding spaces.
 */
export function deleteConfirmationMatches(typed: string, email: string): boolean {
  return typed.trim().toLowerCase() === email.trim().toLowerCase();
}

/** account.delete / POST /v1/account/delete */
export const deleteAccountInputSchema = z.strictObject({
  /** The account's e-mail address, typed by the person. */
  confirm: z.string().min(1, 'type the e-mail address of the account to delete it').max(320),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountInputSchema>;

export const deleteAccountOutputSchema = z.object({
  deleted: z.literal(true),
  /** Paid subscriptions cancelled at the payment provider (at once, not at the period's end). */
  subscriptionsCancelled: z.number().int(),
  /** Recap e-mail files removed from the outbox folder. */
  outboxFilesRemoved: z.number().int(),
});
export type DeleteAccountOutput = z.infer<typeof deleteAccountOutputSchema>;
