import { parseEmailList } from '@mbox/shared/email-list';
import { changedSettings, type UserSettings, type UserSettingsUpdate } from '@mbox/shared/user-settings';

/** The General tab's Email section as the user edits it. */
export interface EmailSettingsForm {
  sendSummary: boolean;
  sendNoSummary: boolean;
  /** Typed text: addresses separated by commas or spaces. */
  redirectEmails: string;
  /** Chips: valid addresses only (spec §5). */
  whiteEmailList: string[];
  /** What is typed in the chip input and not yet turned into chips. */
  pendingEmail: string;
}

export function emailFormFrom(settings: UserSettings): EmailSettingsForm {
  return {
    sendSummary: settings.sendSummary,
    sendNoSummary: settings.sendNoSummary,
    redirectEmails: settings.redirectEmails,
    whiteEmailList: settings.whiteEmailList,
    pendingEmail: '',
  };
}

/**
 * Turns the valid addresses of typed text into chips (split on commas or whitespace, spec §5),
 * skipping ones already there; invalid entries stay in the input so they can be fixed.
 */
export function addEmailChips(chips: readonly string[], text: string): { chips: string[]; rest: string } {
  const { valid, invalid } = parseEmailList(text);
  return { chips: [...chips, ...valid.filter((email) => !chips.includes(email))], rest: invalid.join(', ') };
}

export interface EmailFormErrors {
  redirectEmails?: string;
  pendingEmail?: string;
}

export function emailFormErrors(form: EmailSettingsForm): EmailFormErrors {
  const errors: EmailFormErrors = {};
  const redirectInvalid = parseEmailList(form.redirectEmails).invalid;
  if (redirectInvalid.length > 0) errors.redirectEmails = `Not an e-mail address: ${redirectInvalid.join(', ')}`;
  const pendingInvalid = parseEmailList(form.pendingEmail).invalid;
  if (pendingInvalid.length > 0) errors.pendingEmail = `Not an e-mail address: ${pendingInvalid.join(', ')}`;
  return errors;
}

/**
 * The update a save sends: the fields that differ from the cached settings (spec §4: e-mail settings
 * are saved only when something changed). Addresses are compared as the server stores them, and
 * valid addresses still typed in the chip input count as chips.
 */
export function emailFormChanges(settings: UserSettings, form: EmailSettingsForm): UserSettingsUpdate {
  return changedSettings(settings, {
    sendSummary: form.sendSummary,
    sendNoSummary: form.sendNoSummary,
    redirectEmails: parseEmailList(form.redirectEmails).valid.join(', '),
    whiteEmailList: addEmailChips(form.whiteEmailList, form.pendingEmail).chips,
  });
}

/** Save is enabled only when something changed, nothing typed is invalid, and no save is running (spec §5). */
export function canSaveEmailForm(settings: UserSettings, form: EmailSettingsForm, saving: boolean): boolean {
  if (saving) return false;
  if (Object.keys(emailFormErrors(form)).length > 0) return false;
  return Object.keys(emailFormChanges(settings, form)).length > 0;
}
