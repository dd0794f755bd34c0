import { z } from 'zod';

/** Change types the changelog shows; anything else is shown as a fix (product.md, Screens). */
export const CHANGE_TYPES = ['New', 'Improvement', 'Fix'] as const;
export const changeTypeSchema = z.enum(CHANGE_TYPES);
export type ChangeType = z.infer<typeof changeTypeSchema>;

export interface Change {
  type: ChangeType;
  description: string;
  subChanges?: Change[];
}

export const changeSchema: z.ZodType<Change> = z.object({
  type: changeTypeSchema,
  description: z.string().min(1),
  get subChanges() {
    return z.array(changeSchema).optional();
  },
});

export const changelogEntrySchema = z.object({
  /** Semantic version, e.g. 0.1.0. */
  version: z.string().regex(/^\d+\.\d+\.\d+$/, { message: 'Expected a version such as 1.2.3' }),
  /** Release day, yyyy-MM-dd. */
  date: z.iso.date(),
  changes: z.array(changeSchema).min(1),
});
export type ChangelogEntry = z.infer<typeof changelogEntrySchema>;

/** Newest release first. */
export const changelogSchema = z.array(changelogEntrySchema);

/** How the page styles a change type it may not know (product.md, Screens: anything else is a fix). */
export function displayChangeType(type: string): ChangeType {
  return type === 'New' || type === 'Improvement' ? type : 'Fix';
}
