import { LANGUAGE_PICK_LIST } from '@mbox/shared/prompts/index';

/** The language picker's entries (spec §9: 29 languages with flags, English, Ukrainian, French, Polish first). */
export function LanguageOptions() {
  return LANGUAGE_PICK_LIST.map((l) => (
    <option key={l.code} value={l.code}>
      {`${l.flag} ${l.name}`}
    </option>
  ));
}
