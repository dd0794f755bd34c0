import type WinkNlp from 'wink-nlp';
import type { ItemEntity, ItemSentence, ItemToken, ItsFunction, Model } from 'wink-nlp';
import { lazyRequire } from '../../lazy-require.js';
import { englishNlp } from '../nlp.js';

/**
 * Sentences, parts of speech, lemmas and entities come from wink-nlp with its English model
 * (wink-eng-lite-web-model, MIT), shared with the evidence check (../nlp.ts): loaded with the first
 * summary, not at start-up (about 300 ms, 20 MB).
 */
const winkNlp = lazyRequire<typeof WinkNlp>('wink-nlp');
const englishModel = lazyRequire<Model>('wink-eng-lite-web-model');

type Wink = ReturnType<typeof WinkNlp>;
let tagger: Wink | undefined;
/** Every annotation: sentences, tags, lemmas, entities (for the few sentences that become notes). */
const wink = englishNlp;
/** Sentences and tags only, for the whole transcript: entity recognition is most of the rest of the cost. */
function winkTagger(): Wink {
  return (tagger ??= winkNlp()(englishModel(), ['sbd', 'pos']));
}

/** Universal part-of-speech tags (https://universaldependencies.org/u/pos/). */
export type Pos =
  | 'ADJ' | 'ADP' | 'ADV' | 'AUX' | 'CCONJ' | 'DET' | 'INTJ' | 'NOUN' | 'NUM' | 'PART' | 'PRON' | 'PROPN'
  | 'PUNCT' | 'SCONJ' | 'SYM' | 'VERB' | 'X' | 'SPACE';

export interface Token {
  /** As written. */
  value: string;
  /** Lower case, contractions expanded ("'ll" → "will", "n't" → "not"). */
  normal: string;
  lemma: string;
  pos: Pos;
  /** Whitespace before the token in the text. */
  space: string;
  /** Entity type when the token is part of one (DATE, TIME, DURATION, MONEY, CARDINAL, ORDINAL, PERCENT, …). */
  entity?: string;
}

/** One sentence as tokens. */
export interface TaggedSentence {
  text: string;
  tokens: Token[];
}

/** Splits text into its sentences (wink-nlp's sentence boundary detection). */
export function splitSentences(text: string): string[] {
  if (!text.trim()) return [];
  return winkTagger().readDoc(text).sentences().out().map((s) => s.trim()).filter((s) => s.length > 0);
}

/** The sentences of a text with their tokens, tags, lemmas and entities. */
export function tagSentences(text: string): TaggedSentence[] {
  const nlp = wink();
  const its = nlp.its;
  const doc = nlp.readDoc(text);
  const entityOf = new Map<number, string>();
  doc.entities().each((entity: ItemEntity) => {
    const type = entity.out(its.type) as string;
    entity.tokens().each((token: ItemToken) => entityOf.set(token.index(), type));
  });
  const out: TaggedSentence[] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const tokens: Token[] = [];
    sentence.tokens().each((token: ItemToken) => {
      tokens.push({
        value: token.out(its.value) as string,
        normal: token.out(its.normal) as string,
        // wink-nlp's typings declare lemma's extra `addons` parameter where out() passes its cache.
        lemma: token.out(its.lemma as unknown as ItsFunction<string>) as string,
        pos: token.out(its.pos) as Pos,
        space: token.out(its.precedingSpaces) as string,
        entity: entityOf.get(token.index()),
      });
    });
    if (tokens.length > 0) out.push({ text: sentence.out().trim(), tokens });
  });
  return out;
}

/** The sentences of a text with their part-of-speech tags only (cheaper: no lemmas or entities). */
export function posSentences(text: string): { text: string; values: string[]; pos: Pos[] }[] {
  if (!text.trim()) return [];
  const nlp = winkTagger();
  const its = nlp.its;
  const out: { text: string; values: string[]; pos: Pos[] }[] = [];
  nlp.readDoc(text).sentences().each((sentence: ItemSentence) => {
    const tokens = sentence.tokens();
    const values = tokens.out(its.value) as string[];
    if (values.length > 0) out.push({ text: sentence.out().trim(), values, pos: tokens.out(its.pos) as Pos[] });
  });
  return out;
}

/** Text of tokens with their spacing. */
export function joinTokens(tokens: readonly Pick<Token, 'value' | 'space'>[]): string {
  return tokens.map((t, i) => (i === 0 ? t.value : t.space + t.value)).join('');
}
