/**
 * The word Meet shows as the speaker of the user's own captions, per UI language. This is the last
 * signal for "this caption is mine": the user's name and avatar on the page come first (see
 * tracker.ts), because they do not depend on the UI language or on page translation.
 *
 * Only second-person words ("you") are listed, in the forms Meet's translations use (formal and
 * informal where a language has both). First-person words are left out on purpose: several of them are
 * also common given names ("Ben", "Mina", "Ako"). Compiled from Meet's and Google's UI translations.
 */
export const SELF_LABELS_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  af: ['Jy', 'U'],
  am: ['እርስዎ', 'አንተ'],
  ar: ['أنت', 'انت'],
  az: ['Siz', 'Sən'],
  be: ['Вы', 'Ты'],
  bg: ['Вие', 'Ти'],
  bn: ['আপনি', 'তুমি'],
  bs: ['Vi', 'Ti'],
  ca: ['Tu', 'Vós', 'Vostè'],
  cs: ['Vy', 'Ty'],
  cy: ['Chi', 'Ti'],
  da: ['Dig', 'Du'],
  de: ['Sie', 'Du'],
  el: ['Εσύ', 'Εσείς'],
  en: ['You'],
  es: ['Tú', 'Tu', 'Usted'],
  et: ['Teie', 'Sina'],
  eu: ['Zu'],
  fa: ['شما', 'تو'],
  fi: ['Sinä', 'Te'],
  fil: ['Ikaw', 'Ikaw mismo', 'Kayo'],
  fr: ['Vous', 'Toi'],
  ga: ['Tusa', 'Sibh'],
  gl: ['Ti', 'Vostede'],
  gu: ['તમે'],
  he: ['אתה', 'את', 'אתם'],
  hi: ['आप', 'तुम'],
  hr: ['Vi', 'Ti'],
  hu: ['Te', 'Ön'],
  hy: ['Դուք', 'Դու'],
  id: ['Anda', 'Kamu'],
  is: ['Þú'],
  it: ['Tu', 'Voi', 'Lei'],
  ja: ['あなた', '自分'],
  ka: ['თქვენ', 'შენ'],
  kk: ['Сіз', 'Сен'],
  km: ['អ្នក'],
  kn: ['ನೀವು'],
  ko: ['나', '본인', '당신'],
  ky: ['Сиз', 'Сен'],
  lo: ['ທ່ານ', 'ເຈົ້າ'],
  lt: ['Jūs', 'Tu'],
  lv: ['Jūs', 'Tu'],
  mk: ['Вие', 'Ти'],
  ml: ['നിങ്ങൾ'],
  mn: ['Та', 'Чи'],
  mr: ['तुम्ही', 'आपण'],
  ms: ['Anda', 'Awak'],
  my: ['သင်', 'သင်ကိုယ်တိုင်'],
  ne: ['तपाईं', 'तिमी'],
  nl: ['Jij', 'U', 'Jezelf'],
  no: ['Du', 'Deg'],
  pa: ['ਤੁਸੀਂ', 'ਤੁਸੀ'],
  pl: ['Ty'],
  pt: ['Você', 'Tu'],
  ro: ['Tu', 'Dvs.', 'Dumneavoastră'],
  ru: ['Вы', 'Ты'],
  si: ['ඔබ'],
  sk: ['Vy', 'Ty'],
  sl: ['Vi', 'Ti'],
  sq: ['Ti', 'Ju'],
  sr: ['Ви', 'Ти', 'Vi', 'Ti'],
  sv: ['Du', 'Dig'],
  sw: ['Wewe', 'Nyinyi'],
  ta: ['நீங்கள்', 'நீ'],
  te: ['మీరు', 'నువ్వు'],
  th: ['คุณ'],
  tr: ['Sen', 'Siz'],
  uk: ['Ви', 'Ти'],
  ur: ['آپ', 'تم'],
  uz: ['Siz', 'Sen'],
  vi: ['Bạn'],
  'zh-CN': ['你', '您'],
  'zh-HK': ['你', '您'],
  'zh-TW': ['你', '您'],
  zu: ['Wena'],
};

/** Case, Unicode form, spacing and a trailing "(…)" such as "You (presenting)" do not matter. */
function normalizeLabel(label: string): string {
  return label
    .normalize('NFC')
    .replace(/\s*[(（][^)）]*[)）]\s*$/u, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLocaleLowerCase();
}

const KNOWN_SELF_LABELS = new Set(Object.values(SELF_LABELS_BY_LANGUAGE).flat().map(normalizeLabel));

/** Whether Meet shows `label` for the user's own captions in some UI language. */
export function isSelfLabel(label: string): boolean {
  const normalized = normalizeLabel(label);
  return normalized !== '' && KNOWN_SELF_LABELS.has(normalized);
}
