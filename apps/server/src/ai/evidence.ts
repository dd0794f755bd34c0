import { wordsToNumbers } from '@insomnia-dev/words-to-numbers';
import { isFirstName, isKnownWord, readTokens, type NlpToken } from './nlp.js';

/**
 * Checking an answer's points against the lines they cite: the names, numbers (amounts, percentages)
 * and dates a point states are read with wink-nlp and looked for in its evidence (the lines, and the
 * meeting's participants). What is not there is "not found in the transcript".
 */

/** A name, number or date a point states: `text` as written, and what has to be found for it. */
export interface Fact {
  kind: 'name' | 'number' | 'date';
  text: string;
  /** Names and dates: the words (normal and stem forms), each of which must be found. */
  words: { normal: string; stem: string }[];
  /** Numbers: the values, each of which must be found. */
  values: number[];
}

/** What some lines hold: their words, stems and the values of their numbers (digits or words). */
export interface Evidence {
  words: Set<string>;
  stems: Set<string>;
  values: Set<number>;
}

const SCALES: Record<string, number> = { hundred: 100, thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };
/** Words inside a number written in words: "a hundred and twenty", "twelve point five". */
const NUMBER_CONNECTORS = new Set(['and', 'point', '-']);
/** Entities whose words are not names (they are read as dates or numbers, or are units). */
const NOT_NAMES = new Set(['DATE', 'TIME', 'MONEY', 'PERCENT', 'DURATION', 'CARDINAL', 'ORDINAL']);
const DATE_ENTITIES = new Set(['DATE', 'TIME']);

const hasDigit = (token: NlpToken) => /\d/.test(token.value);
const isNumberWord = (token: NlpToken) => token.pos === 'NUM' && token.type === 'word';

/** The numbers of a token with digits: "1,200.50" → 1200.5, "3-4" → 3 and 4, "14th" → 14, "10:30" → 10 and 30. */
function digitValues(text: string): number[] {
  return [...text.matchAll(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g)].map((m) => Number(m[0].replace(/,/g, '')));
}

interface NumberSpan {
  /** As written; inside a date, time, amount or percentage, that whole entity ("May 5th", "25 euros"). */
  text: string;
  values: number[];
  /** Written in words ("twenty five") rather than digits. */
  words: boolean;
}

/** Entities whose whole text names a number better than its digits alone. */
const FIGURE_ENTITIES = new Set(['DATE', 'TIME', 'MONEY', 'PERCENT']);
const entityText = (token: NlpToken) => (token.entity && FIGURE_ENTITIES.has(token.entity.type) ? token.entity.text : undefined);

/** Numbers in digits (with a scale word: "4 million") or in words ("twenty five"), with their values. */
function numberSpans(tokens: readonly NlpToken[]): NumberSpan[] {
  const spans: NumberSpan[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    let end = i + 1;
    if (hasDigit(token)) {
      let scale = 1;
      while (end < tokens.length && SCALES[tokens[end]!.normal]) scale *= SCALES[tokens[end++]!.normal]!;
      const text = entityText(token) ?? tokens.slice(i, end).map((t) => t.value).join(' ');
      spans.push({ text, values: digitValues(token.value).map((v) => v * scale), words: false });
    } else if (isNumberWord(token)) {
      while (
        end < tokens.length &&
        (isNumberWord(tokens[end]!) || (NUMBER_CONNECTORS.has(tokens[end]!.normal) && end + 1 < tokens.length && isNumberWord(tokens[end + 1]!)))
      ) {
        end++;
      }
      const written = tokens.slice(i, end).map((t) => t.value).join(' ');
      const parsed = wordsToNumbers(written.toLowerCase());
      const values = typeof parsed === 'number' ? [parsed] : digitValues(String(parsed));
      if (values.length > 0) spans.push({ text: entityText(token) ?? written, values, words: true });
    } else continue;
    i = end - 1;
  }
  return spans;
}

/** The evidence of some texts (lines as the model read them, "Speaker: text"). */
export function evidenceOf(texts: readonly string[]): Evidence {
  const evidence: Evidence = { words: new Set(), stems: new Set(), values: new Set() };
  for (const text of texts) addEvidence(evidence, readTokens(text));
  return evidence;
}

export function addEvidence(evidence: Evidence, tokens: readonly NlpToken[]): void {
  for (const token of tokens) {
    evidence.words.add(token.normal);
    evidence.stems.add(token.stem);
    // Each number alone too, so "4 million" also supports a 4, and "3-4" a 3.
    if (hasDigit(token)) for (const value of digitValues(token.value)) evidence.values.add(value);
  }
  for (const span of numberSpans(tokens)) for (const value of span.values) evidence.values.add(value);
  // Any number word alone, whatever its part of speech here ("one meeting", "the second option"), supports its digits.
  for (const token of tokens) {
    if (token.type !== 'word' || hasDigit(token)) continue;
    const value = wordValue(token.normal);
    if (value !== null) evidence.values.add(value);
  }
}

const wordValues = new Map<string, number | null>();

/** The value of a single number word ("one", "twelve", "second"), or null; remembered, as words repeat. */
function wordValue(word: string): number | null {
  let value = wordValues.get(word);
  if (value === undefined) {
    const parsed = wordsToNumbers(word);
    value = typeof parsed === 'number' ? parsed : null;
    if (wordValues.size < 50_000) wordValues.set(word, value);
  }
  return value;
}

/**
 * The names, numbers and dates a point states. A number written as the word "one" is left out: it is
 * as often a pronoun ("the one we liked") as a figure.
 */
export function factsOf(text: string): Fact[] {
  const tokens = readTokens(text);
  const facts: Fact[] = [];
  for (const span of numberSpans(tokens)) {
    if (span.words && span.values.every((v) => v === 1)) continue;
    facts.push({ kind: 'number', text: span.text, words: [], values: span.values });
  }
  // Dates: the words of DATE and TIME entities ("Friday", "March", "tomorrow"); their numbers are numbers.
  const dates = new Map<number, Fact>();
  for (const token of tokens) {
    if (!token.entity || !DATE_ENTITIES.has(token.entity.type)) continue;
    // "May" is a stop word, and the month all the same.
    if (hasDigit(token) || token.type !== 'word' || (token.stopWord && token.pos !== 'PROPN') || token.pos === 'NUM') continue;
    const fact = dates.get(token.entity.index) ?? { kind: 'date', text: token.entity.text, words: [], values: [] };
    fact.words.push({ normal: token.normal, stem: token.stem });
    dates.set(token.entity.index, fact);
  }
  facts.push(...dates.values());
  // Names: runs of capitalised proper nouns outside date, time and number entities.
  const capitalisedName = (token: NlpToken | undefined) =>
    token !== undefined &&
    token.pos === 'PROPN' &&
    token.type === 'word' &&
    !token.stopWord &&
    /^\p{Lu}/u.test(token.value) &&
    !(token.entity && NOT_NAMES.has(token.entity.type));
  let name: Fact | null = null;
  for (const [i, token] of tokens.entries()) {
    // A sentence's first word is capitalised whatever it is: a word of the lexicon ("Budget:", "Team
    // agreed") is taken for a name only when it is a common first name ("Grace", "Mark") or a name
    // follows it ("Sarah Connor").
    const commonWord = token.sentenceStart && isKnownWord(token.normal) && !isFirstName(token.normal) && !capitalisedName(tokens[i + 1]);
    const isName = capitalisedName(token) && !commonWord;
    if (!isName) {
      name = null;
      continue;
    }
    if (name) {
      name.text += ` ${token.value}`;
      name.words.push({ normal: token.normal, stem: token.stem });
    } else {
      name = { kind: 'name', text: token.value, words: [{ normal: token.normal, stem: token.stem }], values: [] };
      facts.push(name);
    }
  }
  return facts;
}

/** Whether the evidence (or, for names, the participants' names) holds a fact. */
export function isSupported(fact: Fact, evidence: Evidence, participants: Evidence): boolean {
  const has = (ev: Evidence, word: { normal: string; stem: string }) => ev.words.has(word.normal) || ev.stems.has(word.stem);
  switch (fact.kind) {
    case 'number':
      return fact.values.every((value) => evidence.values.has(value));
    case 'date':
      return fact.words.every((word) => has(evidence, word));
    case 'name':
      return fact.words.every((word) => has(evidence, word) || has(participants, word));
  }
}

/** The facts of a point that its evidence does not hold, as written (deduplicated). */
export function unsupportedFacts(text: string, evidence: Evidence, participants: Evidence): string[] {
  const missing = factsOf(text)
    .filter((fact) => !isSupported(fact, evidence, participants))
    .map((fact) => fact.text);
  return [...new Set(missing)];
}
