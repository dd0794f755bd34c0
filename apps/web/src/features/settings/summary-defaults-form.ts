import { OFFERED_SUMMARY_DEPTHS, type LanguageCode, type SummaryDepth } from '@mbox/shared/prompts/index';
import type { UserSettings, UserSettingsUpdate } from '@mbox/shared/user-settings';
import { settleLengths } from '../summary/settings-form';

/** What the Settings › Summary tab edits; lengths are the inputs' text while typing. */
export interface SummaryDefaultsForm {
  depth: SummaryDepth;
  /** Empty: summaries stay in the meeting's language. */
  translateTo: LanguageCode | '';
  minLength: string;
  maxLength: string;
}

/** The form as the stored settings fill it; a stored depth the picker does not offer shows as Standard. */
export function formFromSettings(settings: UserSettings): SummaryDefaultsForm {
  const offered = OFFERED_SUMMARY_DEPTHS.some((d) => d.value === settings.defaultSummaryDepth);
  return {
    depth: offered ? settings.defaultSummaryDepth : OFFERED_SUMMARY_DEPTHS[0]!.value,
    translateTo: settings.defaultTranslateTo,
    minLength: String(settings.defaultMinSummaryLength),
    maxLength: String(settings.defaultMaxSummaryLength),
  };
}

/** The update 'Save settings' sends, with the length rules of product.md, Validation applied first. */
export function toSettingsUpdate(form: SummaryDefaultsForm): UserSettingsUpdate {
  const settled = settleLengths(form);
  return {
    defaultSummaryDepth: settled.depth,
    defaultTranslateTo: settled.translateTo,
    defaultMinSummaryLength: Number(settled.minLength),
    defaultMaxSummaryLength: Number(settled.maxLength),
  };
}
