import { isKnownWord } from '../nlp.js';
import { joinTokens, tagSentences, type Pos, type Token } from './nlp.js';
import { isQuestion, STOPWORDS, TAG_QUESTIONS } from './text.js';

/**
 * Notes, not quotes: a spoken sentence rewritten as a line of minutes. Hesitations, hedges and false
 * starts go, first person becomes the speaker ("I'll send it" → "Lynne will send it", "we" → "the
 * team"), a long sentence is cut at a clause boundary and a dangling "so" or "and" at its end goes.
 * Everything works on wink-nlp's tokens and tags.
 */

/** Most words of a note (a sentence longer than this is cut at a clause boundary). */
export const NOTE_WORDS = 25;

export interface NoteOptions {
  /** Who said it: first person becomes this name. Absent for documents (no one to attribute to). */
  speaker?: string;
  maxWords?: number;
}

/** Hedges and fillers that say nothing in writing, as sequences of normalised tokens. */
const HEDGES: readonly (readonly string[])[] = [
  ['you', 'know'],
  ['i', 'mean'],
  ['sort', 'of'],
  ['kind', 'of'],
  ['i', 'guess'],
  ['i', 'suppose'],
  ['you', 'see'],
  ['basically'],
  ['actually'],
  ['obviously'],
  ['literally'],
  ['just'],
  ['really'],
  ['like'],
  ['anyway'],
];

/** Words that open spoken sentences without adding to them ("So, well, okay, the price…"). */
const OPENERS = new Set(['so', 'well', 'now', 'okay', 'ok', 'right', 'yeah', 'yes', 'yep', 'alright', 'and', 'but', 'then', 'also', 'oh', 'anyway', 'um', 'uh', 'hmm']);
/** A reason given as a reply opens with "because": the note is the reason itself. */
const REASON_OPENERS = new Set(['because', "'cause", 'cause']);

/** The third-person verb of a contraction: "I'm" → "is", "we've" → "has". */
const JOINED_VERB: Record<string, string> = { m: 'is', re: 'is', ll: 'will', ve: 'has', d: 'would', s: 'is' };

const MODALS = new Set(['will', 'would', 'can', 'could', 'should', 'shall', 'must', 'might', 'may']);

/** A contracted verb or particle written onto the word before it: 're, 'll, 've, n't. */
function isClitic(t: Token): boolean {
  return /^['’]/.test(t.value) || t.normal === 'not' && /^n['’]t$/i.test(t.value);
}

function isWord(t: Token): boolean {
  return t.pos !== 'PUNCT' && t.pos !== 'SYM' && t.pos !== 'SPACE';
}

function wordsIn(tokens: readonly Token[]): number {
  return tokens.filter(isWord).length;
}

const token = (value: string, space = ' ', pos: Pos = 'X'): Token => ({ value, normal: value.toLowerCase(), lemma: value.toLowerCase(), pos, space });

/** The third person singular of a verb's lemma: "think" → "thinks", "go" → "goes", "try" → "tries". */
export function thirdPerson(lemma: string): string {
  const irregular: Record<string, string> = { be: 'is', have: 'has', do: 'does', go: 'goes' };
  if (irregular[lemma]) return irregular[lemma];
  if (/(?:s|x|z|ch|sh|o)$/.test(lemma)) return `${lemma}es`;
  if (/[^aeiou]y$/.test(lemma)) return `${lemma.slice(0, -1)}ies`;
  return `${lemma}s`;
}

/** The verb form that agrees with a third-person singular subject, or undefined if it already does. */
function agree(t: Token): string | undefined {
  const n = t.normal;
  if (n === 'am' || n === 'are' || n === "'m" || n === "'re") return 'is';
  if (n === 'were') return 'was';
  if (MODALS.has(n)) return t.value.startsWith("'") ? n : undefined;
  if (t.value.startsWith("'")) return n; // 've, 'd: "has"/"would" below
  if (n === 'have') return 'has';
  if (n === 'do') return 'does';
  // A base-form verb (its normal is its lemma) in the present: "think" → "thinks". Past forms differ from the lemma.
  if (t.pos === 'VERB' && n === t.lemma && /^[a-z]+$/.test(n)) return thirdPerson(n);
  return undefined;
}

/** Rewrites the verb of a replaced subject at index `subject` to agree with it (before it in a question: "are we" → "is the team"). */
function agreeAfter(tokens: Token[], subject: number): void {
  const before = tokens[subject - 1];
  const next = tokens[subject + 1];
  if (before && before.pos === 'AUX' && !(next && isClitic(next)) && tokens[tokens.length - 1]?.value === '?') {
    const form = agree(before);
    if (form !== undefined) tokens[subject - 1] = { ...before, value: form, normal: form };
    return;
  }
  // "we all go" → "the team goes"
  if (['all', 'both'].includes(tokens[subject + 1]?.normal ?? '')) tokens.splice(subject + 1, 1);
  for (let j = subject + 1; j < Math.min(tokens.length, subject + 4); j++) {
    const t = tokens[j]!;
    if (t.pos === 'ADV' || (t.pos === 'PART' && t.normal !== 'to')) continue;
    if (t.pos !== 'VERB' && t.pos !== 'AUX') return;
    let form = agree(t);
    if (t.value === "'ve" || t.value === '’ve') form = 'has';
    if (t.value === "'d" || t.value === '’d') form = 'would';
    if (form !== undefined) tokens[j] = { ...t, value: form, normal: form, space: ' ' };
    return;
  }
}

/** Who "we" is in minutes. */
export const TEAM = 'the team';

/** First person → the speaker ("I" → "Lynne", "my" → "Lynne's"), "we" → "the team", with agreeing verbs. */
export function attribute(tokens: readonly Token[], speaker: string): Token[] {
  const out = [...tokens];
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    const next = out[i + 1];
    // "let's decide" → "the team will decide"
    if (t.normal === 'let' && next && (next.value === "'s" || next.value === "’s")) {
      out.splice(i, 2, token(TEAM, t.space, 'NOUN'), token('will', ' ', 'AUX'));
      continue;
    }
    // The tokenizer sometimes keeps a contraction whole ("I'm" at the start of a sentence).
    const joined = /^(i|we|let)['’](m|re|ll|ve|d|s)$/.exec(t.normal);
    if (joined) {
      const subject = joined[1] === 'i' ? speaker : TEAM;
      const verb = joined[1] === 'let' ? 'will' : JOINED_VERB[joined[2]!]!;
      out.splice(i, 1, token(subject, t.space, joined[1] === 'i' ? 'PROPN' : 'NOUN'), token(verb, ' ', 'AUX'));
      continue;
    }
    // A lower-case "i" before anything but a verb is a stutter ("it's i instead"), not the speaker.
    if (t.normal === 'i' && t.value === 'i' && !['VERB', 'AUX'].includes(next?.pos ?? '')) continue;
    if (t.pos !== 'PRON' && t.normal !== 'i') continue;
    switch (t.normal) {
      case 'i':
        out[i] = { ...t, value: speaker, normal: speaker.toLowerCase(), pos: 'PROPN' };
        agreeAfter(out, i);
        break;
      case 'me':
      case 'myself':
        out[i] = { ...t, value: speaker, normal: speaker.toLowerCase(), pos: 'PROPN' };
        break;
      case 'my':
      case 'mine':
        out[i] = { ...t, value: `${speaker}'s`, normal: `${speaker.toLowerCase()}'s`, pos: 'PROPN' };
        break;
      case 'we':
        out[i] = { ...t, value: TEAM, normal: TEAM, pos: 'NOUN' };
        agreeAfter(out, i);
        break;
      case 'us':
      case 'ourselves':
        out[i] = { ...t, value: TEAM, normal: TEAM, pos: 'NOUN' };
        break;
      case 'our':
      case 'ours':
        out[i] = { ...t, value: `${TEAM}'s`, normal: `${TEAM}'s`, pos: 'NOUN' };
        break;
    }
  }
  return out;
}

function matchesAt(tokens: readonly Token[], i: number, phrase: readonly string[]): boolean {
  return phrase.every((word, k) => tokens[i + k]?.normal === word);
}

const DEBRIS_BEFORE_COMMA: ReadonlySet<Pos> = new Set(['DET', 'ADP', 'CCONJ', 'SCONJ', 'PART']);

/** Words that answer rather than state: "No, we're talking about…". */
const ANSWER_WORDS = new Set(['yes', 'yeah', 'okay', 'ok', 'well', 'sure']);

/** Spoken contractions written out: "gonna" → "going to". */
const SPOKEN: Record<string, [string, string]> = { gonna: ['going', 'go'], wanna: ['want', 'want'], gotta: ['have', 'have'] };

/**
 * A word cut off by its speaker ("littl", "regu", "th"): lower case, and either unknown to the English
 * model's lexicon or two letters that are no function word.
 */
function isCutOff(t: Token): boolean {
  if (t.pos === 'PROPN' || t.value !== t.normal || !/^\p{Ll}+$/u.test(t.value)) return false;
  return !isKnownWord(t.normal) || (t.normal.length <= 2 && !STOPWORDS.has(t.normal) && t.normal !== 'a');
}

/** Most tokens between a cut-off word and the word it was the start of ("littl this little"). */
const REPAIR_SPAN = 3;

/**
 * A cut-off word and what it was repaired by: "the regu or the regular chip" → "the regular chip" (the
 * words before it said again), "the only oth thing other thing" → "the only other thing" (the words
 * after it said again), "we had littl this little demo" → "we had this little demo".
 */
function dropRepairs(tokens: readonly Token[]): Token[] {
  const out = [...tokens];
  const same = (a: readonly Token[], b: readonly Token[]) => a.length === b.length && a.every((t, k) => t.normal === b[k]!.normal);
  for (let p = 0; p < out.length; p++) {
    const f = out[p]!;
    if (!isCutOff(f)) continue;
    let q = p + 1;
    while (q < out.length && q <= p + REPAIR_SPAN && isWord(out[q]!) && !(out[q]!.normal.length > f.normal.length && out[q]!.normal.startsWith(f.normal))) q++;
    if (q >= out.length || q > p + REPAIR_SPAN || !isWord(out[q]!)) continue;
    const between = out.slice(p + 1, q);
    const k = between.length;
    if (k > 0 && p >= k && same(out.slice(p - k, p), between)) out.splice(p - k, k + 1);
    else if (k > 0 && same(out.slice(q + 1, q + 1 + k), between)) out.splice(p, k + 1);
    else out.splice(p, 1);
    p = Math.max(-1, p - k - 1);
  }
  return out;
}

/** Subjects a spoken clause is restarted with ("let's" counts as "we"). */
const RESTART_SUBJECTS = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it']);

/** Pronouns that can only be subjects. */
const NOMINATIVE = new Set(['i', 'we', 'they', 'he', 'she']);

/** The subject of a clause opener at `i` and the opener's length in tokens (with its auxiliary), if one starts there. */
function openerAt(tokens: readonly Token[], i: number): { subject: string; length: number } | undefined {
  const t = tokens[i]!;
  if (t.normal === 'let' && /^['’]s$/.test(tokens[i + 1]?.value ?? '')) return { subject: 'we', length: 2 };
  // The tokenizer sometimes keeps a contraction whole ("I'm", "we'll").
  const joined = /^(i|we|you|they)['’](?:ll|m|re|ve|d)$/.exec(t.normal);
  if (joined) return { subject: joined[1]!, length: 1 };
  if (t.pos !== 'PRON' || !RESTART_SUBJECTS.has(t.normal)) return undefined;
  return { subject: t.normal, length: tokens[i + 1]?.pos === 'AUX' ? 2 : 1 };
}

/** Most tokens a clause gets before it is restarted. */
const RESTART_SPAN = 6;

/**
 * Clauses broken off and restarted with the same subject before they reached anything they were
 * about: "we will tha — let's go for a touch screen" → "let's go for a touch screen", "I th I assume" →
 * "I assume", "we can aim for — we can think about…" → "we can think about…". A first attempt that
 * names something ("I told him I would") or is joined by a conjunction ("we can if we can") stands.
 */
function dropRestarts(tokens: readonly Token[]): Token[] {
  const out = [...tokens];
  for (let i = 0; i < out.length; i++) {
    const first = openerAt(out, i);
    if (!first) continue;
    // Two subjects in a row ("i we thought"): the first was dropped for the second ("you" and "it" may be objects: "thank you I…").
    const second = first.length === 1 && NOMINATIVE.has(out[i]!.normal) && i + 1 < out.length ? openerAt(out, i + 1) : undefined;
    if (second && out[i]!.normal !== out[i + 1]!.normal) {
      out.splice(i, 1);
      i--;
      continue;
    }
    for (let j = i + first.length; j < out.length && j <= i + first.length + RESTART_SPAN; j++) {
      const t = out[j]!;
      const again = openerAt(out, j);
      if (again && again.subject === first.subject) {
        const between = out.slice(i + first.length, j);
        // Only cut-off words and adverbs between, or the same subject and auxiliary said again.
        const bare = between.every((x) => isCutOff(x) || x.pos === 'ADV');
        const sameOpener = first.length === 2 && again.length === 2 && out[i + 1]!.normal === out[j + 1]!.normal;
        if (bare || sameOpener) out.splice(i, j - i);
        break;
      }
      if (!isWord(t) || ['CCONJ', 'SCONJ', 'NOUN', 'PROPN', 'PRON', 'NUM', 'DET'].includes(t.pos) && !isCutOff(t)) break;
    }
  }
  return out;
}

/** Hesitations (interjections), hedges, false starts and repeated words out; spoken contractions written out. */
export function dropFillers(tokens: readonly Token[]): Token[] {
  return dropRestarts(dropRepairs(dropHesitations(tokens)));
}

function dropHesitations(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const spoken = SPOKEN[t.normal];
    if (spoken) {
      out.push({ ...t, value: spoken[0], normal: spoken[0], lemma: spoken[1], pos: 'VERB' }, token('to', ' ', 'PART'));
      continue;
    }
    // "No, we're talking about…": an answer word before a comma opens the sentence and says nothing in a note.
    if (out.length === 0 && ANSWER_WORDS.has(t.normal) && tokens[i + 1]?.value === ',') {
      i++;
      continue;
    }
    // An interjection is a hesitation unless it is part of a hyphenated word ("a yes-or-no question").
    const joined = (tokens[i + 1]?.value === '-' && tokens[i + 1]!.space === '') || (tokens[i - 1]?.value === '-' && t.space === '');
    if (t.pos === 'INTJ' && !joined) {
      if (tokens[i + 1]?.value === ',') i++;
      continue;
    }
    const hedge = HEDGES.find((h) => matchesAt(tokens, i, h) && (h[0] !== 'like' || tokens[i + 1]?.value === ','));
    // "just" and "really" are hedges as adverbs only ("a really good idea" keeps its meaning without them, "just in time" is no adverb).
    if (hedge && (hedge.length > 1 || t.pos === 'ADV')) {
      i += hedge.length - 1;
      if (tokens[i + 1]?.value === ',' && (out.length === 0 || out[out.length - 1]!.value === ',')) i++;
      continue;
    }
    const prev = out[out.length - 1];
    if (prev && isWord(t) && prev.normal === t.normal) continue; // "the the"
    // A false start: a question begun and restarted as a statement ("are we — we're not allowed").
    if (prev?.pos === 'PRON' && out[out.length - 2]?.pos === 'AUX' && isClitic(t) && t.pos === 'AUX') out.splice(out.length - 2, 1);
    // Commas left where a hesitation was cut out: at the start, doubled, or right after "the", "in", "and".
    if (t.value === ',' && (!prev || prev.pos === 'PUNCT' || DEBRIS_BEFORE_COMMA.has(prev.pos))) continue;
    out.push(t);
  }
  // …or between an auxiliary (or "let's") and its verb, once the hedge between them is out: "let's, you know, try" → "let's try".
  return out.filter((t, k) => {
    if (t.value !== ',' || out[k + 1]?.pos !== 'VERB') return true;
    const prev = out[k - 1];
    return !(prev?.pos === 'AUX' || (prev?.normal === 'us' && out[k - 2]?.normal === 'let'));
  });
}

/** Discourse openers, commas and conjunctions at the start go. */
/** Titles a speaker addresses someone by ("Mr. Chair, …", "Madam Speaker, …"). */
const TITLES = new Set(['mr', 'mr.', 'mrs', 'mrs.', 'ms', 'ms.', 'madam', 'chair', 'chairman', 'chairwoman', 'speaker', 'minister', 'president', 'sir']);

/**
 * Length of a vocative at `i` ("Mr. Chair," "Ben,"): a short run of names or titles closed by a comma
 * before a clause; 0 if none.
 */
function vocativeAt(tokens: readonly Token[], i: number): number {
  let j = i;
  let titled = false;
  while (j < tokens.length && j < i + 4 && (tokens[j]!.pos === 'PROPN' || TITLES.has(tokens[j]!.normal) || tokens[j]!.value === '.')) {
    titled ||= TITLES.has(tokens[j]!.normal);
    j++;
  }
  if (j === i || tokens[j]?.value !== ',' || j + 1 >= tokens.length) return 0;
  // "Mr. Chair," and "Ben, can you…" address someone; "David Hopkins, the director…, told…" is the
  // subject with an apposition.
  const after = tokens[j + 1]!;
  return titled || ['PRON', 'AUX', 'VERB', 'ADV', 'INTJ'].includes(after.pos) ? j + 1 - i : 0;
}

/** A closing vocative (", Mr. Chair." at the end) goes too. */
function dropClosingVocative(tokens: readonly Token[]): Token[] {
  const end = tokens[tokens.length - 1]?.pos === 'PUNCT' && tokens[tokens.length - 1]!.value !== ',' ? tokens.length - 1 : tokens.length;
  let j = end;
  let titled = false;
  while (j > 0 && end - j < 4 && (TITLES.has(tokens[j - 1]!.normal) || (tokens[j - 1]!.value === '.' && j < end))) {
    titled ||= TITLES.has(tokens[j - 1]!.normal);
    j--;
  }
  if (!titled || tokens[j - 1]?.value !== ',' || j - 1 === 0) return [...tokens];
  return [...tokens.slice(0, j - 1), ...tokens.slice(end)];
}

/** Discourse openers, vocatives, commas and conjunctions at the start go. */
function dropOpeners(tokens: readonly Token[]): Token[] {
  let i = 0;
  while (i < tokens.length - 1) {
    const t = tokens[i]!;
    const vocative = vocativeAt(tokens, i);
    if (vocative > 0) i += vocative;
    else if (t.pos === 'PUNCT' || t.pos === 'INTJ' || t.pos === 'CCONJ' || OPENERS.has(t.normal) || REASON_OPENERS.has(t.normal)) i++;
    else break;
  }
  return tokens.slice(i);
}

/**
 * How a speaker is named inside a sentence: without the bracketed riding or role ("Hon. Mary Ng (Markham,
 * Lib.)" → "Hon. Mary Ng"), nested brackets included ("The Chair (Hon. Anthony Rota (Nipissing, Lib.))").
 */
export function shortName(speaker: string): string {
  let short = speaker;
  for (let previous = ''; previous !== short; ) {
    previous = short;
    short = short.replace(/\s*\([^()]*\)/g, '');
  }
  short = short.replace(/[()]/g, '').trim();
  return short || speaker;
}

/** Words a note cannot end on: "…at twelve fifty, so", "…the price and", "…with the". */
const WEAK_END: ReadonlySet<Pos> = new Set(['CCONJ', 'SCONJ', 'PUNCT']);
/** Articles, which cannot end a note either ("all" or "that" can: "at all", "I know that"). */
const ARTICLES = new Set(['a', 'an', 'the', 'every', 'each']);
/** Connectives that dangle at the end of a spoken sentence ("…twelve fifty, so"). */
const DANGLING = new Set(['so', 'then', 'like', 'anyway', 'too']);

/** Drops the words a note cannot end on (commas, articles, conjunctions, a trailing ", so"). */
export function trimEnd(tokens: readonly Token[]): Token[] {
  let end = tokens.length;
  const final = tokens[end - 1]?.pos === 'PUNCT' && /^[.!?…]$/.test(tokens[end - 1]!.value) ? tokens[--end] : undefined;
  for (;;) {
    const last = tokens[end - 1];
    if (!last || end <= 1) break;
    // "…for the laptops then": a closing "then" adds nothing either.
    const dangling = DANGLING.has(last.normal) && (tokens[end - 2]?.value === ',' || last.normal === 'then');
    // "…of the product, of": a preposition after a comma or a closing "of" has lost its object.
    const orphan = last.pos === 'ADP' && (tokens[end - 2]?.value === ',' || last.normal === 'of');
    if (WEAK_END.has(last.pos) || ARTICLES.has(last.normal) || dangling || orphan) end--;
    else break;
  }
  const kept = tokens.slice(0, end);
  return final ? [...kept, final] : kept;
}

/** Where a clause may end: before a comma, dash, conjunction or relative pronoun ("…, which"). */
function clauseBoundary(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i]!;
  // A hyphen inside a word ("kick-off") joins; only a spaced one or a dash separates.
  if (t.pos === 'PUNCT') return /^[,;:—–]$/.test(t.value) || (t.value === '-' && t.space !== '');
  if (t.pos === 'CCONJ' || t.pos === 'SCONJ') return true;
  return t.pos === 'PRON' && ['which', 'who', 'where'].includes(t.normal) && tokens[i - 1]?.pos === 'NOUN';
}

/** Parts of speech a clause cannot stop on before a boundary: "to ensure | that", "in | which". */
const OPEN_BEFORE: ReadonlySet<Pos> = new Set(['VERB', 'AUX', 'ADP', 'DET', 'PART', 'CCONJ', 'SCONJ', 'PRON']);

/**
 * Whether the tokens before `cut` read as a finished clause: they do not stop on a verb awaiting its
 * object or a preposition, and the clause opened last has a verb of its own ("…, then the staff" and
 * "it was in 2017 that the Institute" have none).
 */
function closesClause(tokens: readonly Token[], cut: number): boolean {
  const last = tokens[cut - 1];
  if (!last || OPEN_BEFORE.has(last.pos)) return false;
  // The last clause opened (after a comma, a conjunction or "that", "which"…) needs a verb of its own.
  let from = cut - 1;
  while (from > 0 && !(tokens[from - 1]!.value === ',' || tokens[from - 1]!.value === ';' || clauseBoundary(tokens, from - 1) || tokens[from - 1]!.normal === 'that')) from--;
  if (from === 0) return true;
  return tokens.slice(from, cut).some((t) => t.pos === 'VERB' || t.pos === 'AUX');
}

/**
 * A sentence longer than `max` words cut at the last clause boundary before the limit where a clause
 * closes, so a note never stops mid-clause; undefined when none leaves a clause of at least 6 words.
 */
export function shorten(tokens: readonly Token[], max: number): Token[] | undefined {
  if (wordsIn(tokens) <= max) return [...tokens];
  let words = 0;
  let cut = -1;
  for (let i = 0; i < tokens.length; i++) {
    if (clauseBoundary(tokens, i) && words >= 6 && closesClause(tokens, i)) cut = i;
    if (isWord(tokens[i]!)) words++;
    if (words > max) break;
  }
  if (cut < 0) return undefined;
  const kept = trimEnd(tokens.slice(0, cut));
  return wordsIn(kept) >= 6 ? kept : undefined;
}

function finish(text: string, question: boolean): string {
  let out = text.replace(/[,;:]\s*([.!?])$/, '$1').replace(/\s+/g, ' ').replace(/\s+([,.;:!?])/g, '$1').replace(/^[\s,.;:-]+/, '').replace(/[\s,;:—–-]+$/, '').trim();
  if (!out) return out;
  out = out.charAt(0).toUpperCase() + out.slice(1);
  if (!/[.!?…]["')\]]?$/.test(out)) out += question ? '?' : '.';
  return out;
}

/** A statement closed by a tag question is the statement: "hand dynamos are definitely out, right?" → "…out?" (then a full stop). */
function dropTag(tokens: readonly Token[]): Token[] {
  const end = tokens[tokens.length - 1]?.value === '?' ? tokens.length - 1 : tokens.length;
  for (const tag of TAG_QUESTIONS) {
    const at = end - tag.length;
    if (at > 1 && tokens[at - 1]!.value === ',' && tag.every((w, k) => tokens[at + k]!.normal === w)) return [...tokens.slice(0, at - 1), ...tokens.slice(end)];
  }
  return [...tokens];
}

/**
 * A note from tagged tokens; empty when the sentence is too long and has no clause boundary to cut
 * at (a note never stops mid-clause).
 */
export function noteFromTokens(tokens: readonly Token[], options: NoteOptions = {}): string {
  const question = isQuestion(
    tokens.map((t) => t.value),
    tokens.map((t) => t.pos),
  );
  let out = dropClosingVocative(dropOpeners(dropFillers(dropTag(tokens))));
  // A statement closed by a tag ("…plastic, you know?") is written with a full stop, a question
  // whose mark the captions lost with a question mark.
  const mark = out[out.length - 1];
  if (mark && /^[.?]$/.test(mark.value) && (mark.value === '?') !== question) out = [...out.slice(0, -1), { ...mark, value: question ? '?' : '.', normal: question ? '?' : '.' }];
  if (options.speaker) out = attribute(out, shortName(options.speaker));
  const whole = wordsIn(out);
  const short = shorten(out, options.maxWords ?? NOTE_WORDS);
  if (!short) return '';
  out = trimEnd(short);
  return finish(joinTokens(out), question && wordsIn(out) === whole);
}

/**
 * A note cut after the clause that holds its first entity of the given types: "The team has got a
 * selling price at twenty five Euros, which …" → "The team has got a selling price at twenty five Euros."
 */
export function clauseWithEntity(note: string, types: ReadonlySet<string>): string {
  const tokens = tagSentences(note).flatMap((s) => s.tokens);
  const at = tokens.findIndex((t) => t.entity !== undefined && types.has(t.entity));
  if (at < 0) return note;
  let end = at;
  while (end < tokens.length && !(tokens[end]!.entity === undefined && clauseBoundary(tokens, end))) end++;
  if (end >= tokens.length) return note;
  return finish(joinTokens(trimEnd(tokens.slice(0, end))), false);
}

/** Where the clause holding token `at` starts, and the boundary that opened it ("if", "but", a comma) when there is one. */
export function clauseAt(tokens: readonly Token[], at: number): { start: number; opener?: Token } {
  for (let i = at - 1; i >= 0; i--) if (clauseBoundary(tokens, i)) return { start: i + 1, opener: tokens[i] };
  return { start: 0 };
}

/** A note from a sentence of text ('' when it cannot be cut short: see noteFromTokens). */
export function writeNote(sentence: string, options: NoteOptions = {}): string {
  const tagged = tagSentences(sentence);
  if (tagged.length === 0) return '';
  return noteFromTokens(
    tagged.flatMap((s) => s.tokens),
    options,
  );
}
