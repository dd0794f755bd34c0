import { z } from 'zod';

export interface Language {
  code: string;
  name: string;
  flag: string;
}

/** The 29 languages of product.md, Limits with their codes (Ukrainian is "ua", as docs/product.md spells it). */
export const LANGUAGES = [
  { code: 'ar', name: 'Arabic', flag: '🇸🇦' },
  { code: 'bn', name: 'Bengali', flag: '🇧🇩' },
  { code: 'zh', name: 'Chinese', flag: '🇨🇳' },
  { code: 'da', name: 'Danish', flag: '🇩🇰' },
  { code: 'nl', name: 'Dutch', flag: '🇳🇱' },
  { code: 'en', name: 'English', flag: '🇬🇧' },
  { code: 'fr', name: 'French', flag: '🇫🇷' },
  { code: 'de', name: 'German', flag: '🇩🇪' },
  { code: 'gu', name: 'Gujarati', flag: '🇮🇳' },
  { code: 'hi', name: 'Hindi', flag: '🇮🇳' },
  { code: 'id', name: 'Indonesian', flag: '🇮🇩' },
  { code: 'it', name: 'Italian', flag: '🇮🇹' },
  { code: 'ja', name: 'Japanese', flag: '🇯🇵' },
  { code: 'kn', name: 'Kannada', flag: '🇮🇳' },
  { code: 'ko', name: 'Korean', flag: '🇰🇷' },
  { code: 'ml', name: 'Malayalam', flag: '🇮🇳' },
  { code: 'mr', name: 'Marathi', flag: '🇮🇳' },
  { code: 'no', name: 'Norwegian', flag: '🇳🇴' },
  { code: 'pl', name: 'Polish', flag: '🇵🇱' },
  { code: 'pt', name: 'Portuguese', flag: '🇵🇹' },
  { code: 'ua', name: 'Ukrainian', flag: '🇺🇦' },
  { code: 'es', name: 'Spanish', flag: '🇪🇸' },
  { code: 'sv', name: 'Swedish', flag: '🇸🇪' },
  { code: 'ta', name: 'Tamil', flag: '🇮🇳' },
  { code: 'te', name: 'Telugu', flag: '🇮🇳' },
  { code: 'tr', name: 'Turkish', flag: '🇹🇷' },
  { code: 'th', name: 'Thai', flag: '🇹🇭' },
  { code: 'ur', name: 'Urdu', flag: '🇵🇰' },
  { code: 'vi', name: 'Vietnamese', flag: '🇻🇳' },
] as const satisfies readonly Language[];

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as [LanguageCode, ...LanguageCode[]];
export const languageCodeSchema = z.enum(LANGUAGE_CODES, {
  error: () => `Unknown language code; expected one of ${LANGUAGE_CODES.join(', ')}`,
});

/** The original text of a summary is English: picking English shows the original (product.md, States). */
export const ORIGINAL_LANGUAGE_CODE: LanguageCode = 'en';

const PICK_LIST_FIRST: readonly LanguageCode[] = ['en', 'ua', 'fr', 'pl'];

/** Languages in picker order: English, Ukrainian, French, Polish, then the rest as product.md, Limits lists them. */
export const LANGUAGE_PICK_LIST: readonly Language[] = [
  ...PICK_LIST_FIRST.map((code) => LANGUAGES.find((l) => l.code === code)!),
  ...LANGUAGES.filter((l) => !PICK_LIST_FIRST.includes(l.code)),
];

export function findLanguage(code: string): Language | undefined {
  return LANGUAGES.find((l) => l.code === code);
}
