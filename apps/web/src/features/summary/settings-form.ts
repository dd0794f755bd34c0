import {
  OFFERED_SUMMARY_DEPTHS,
  UI_DEFAULT_SUMMARY_MAX_LENGTH,
  UI_DEFAULT_SUMMARY_MIN_LENGTH,
  coerceMaxSummaryLength,
  coerceMinSummaryLength,
  summarySettingsSchema,
  type SummaryDepth,
  type SummarySettingsInput,
} from '@mbox/shared/prompts/index';

/** What the summary settings dialog edits; lengths are the inputs' text while typing. */
export interface SettingsForm {
  /** The length-control toggle: off leaves the lengths to the server's defaults. */
  lengthControl: boolean;
  depth: SummaryDepth;
  minLength: string;
  maxLength: string;
}

export const INITIAL_SETTINGS_FORM: SettingsForm = {
  lengthControl: false,
  depth: OFFERED_SUMMARY_DEPTHS[0]!.value,
  minLength: String(UI_DEFAULT_SUMMARY_MIN_LENGTH),
  maxLength: String(UI_DEFAULT_SUMMARY_MAX_LENGTH),
};

/**
 * product.md, Validation applied when a length input is left: min snaps to the step and to at least 50 (a
 * non-integer falls back to 50); max snaps to the step and to at least min (a non-integer or 0
 * means no limit, 0). Also used by the Settings › Summary tab's default lengths.
 */
export function settleLengths<Form extends Pick<SettingsForm, 'minLength' | 'maxLength'>>(form: Form): Form {
  const minLength = coerceMinSummaryLength(form.minLength);
  const maxLength = coerceMaxSummaryLength(form.maxLength, minLength);
  return { ...form, minLength: String(minLength), maxLength: String(maxLength) };
}

export type SettingsResult =
  | { ok: true; settings: SummarySettingsInput }
  | { ok: false; errors: Partial<Record<'depth' | 'minLength' | 'maxLength', string>> };

/**
 * The settings sent with PUT /v1/p/prompts/{summaryKey}, checked by the same schema the server
 * uses. Without length control only the depth is sent and the server's lengths apply.
 */
export function toSummarySettings(form: SettingsForm): SettingsResult {
  const candidate: SummarySettingsInput = form.lengthControl
    ? { depth: form.depth, minLength: Number(form.minLength), maxLength: Number(form.maxLength) }
    : { depth: form.depth };
  const parsed = summarySettingsSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, settings: candidate };
  const errors: Partial<Record<'depth' | 'minLength' | 'maxLength', string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'depth' || field === 'minLength' || field === 'maxLength') && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}
