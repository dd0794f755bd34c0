import { stemmer } from 'stemmer';
import type { TranscriptTurn } from '../types.js';
import { posSentences, type Pos } from './nlp.js';

/** Transcript annotations such as {vocalsound}, {disfmarker}, {gap} (AMI), @@ (ICSI: unintelligible) or [inaudible]. */
const MARKERS = /\{[^{}]*\}|\[(?:inaudible|crosstalk|laughter|music|noise|silence)[^\]]*\]|@ ?@/gi;

/** Hesitations that carry no meaning in a written summary. */
const FILLER_WORDS = /\b(?:um+|umm+|uh+|uhm+|uh-huh|erm+|er|ah+|hmm+|hm+|mm+|mm-hmm|mhm+|eh)\b[,.]?/gi;

/** Common English function words plus the conversational glue of meetings ("yeah", "gonna"). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being below
between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for
from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his
how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of
off on once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't so
some such than that that's the their theirs them themselves then there there's these they they'd they'll they're
they've this those through to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when
when's where where's which while who who's whom why why's will with won't would wouldn't you you'd you'll you're you've
your yours yourself yourselves
yeah yes yep no nope okay ok oh right well just like know think mean gonna wanna gotta kinda sorta sort kind really
actually basically thing things stuff something anything everything nothing lot lots bit get got go going goes went
say said says see saw look maybe probably perhaps sure good great fine one two also even still much many way quite
um uh hmm mm er ah huh mhm alright anyway yup hi hello thank thanks please want need make made use used come came
put take took give gave let lets er erm uh-huh mm-hmm there'll there'd that'll who'd can could'nt isnt dont im ive
ill id youre theyre thats whats wont cant didnt doesnt now might may must shall bit lot today yesterday
kind sort guess mean means meant whatever probably definitely exactly different same able`.split(/\s+/),
);

/** AMI transcripts are tokenised ("Okay , that 's fine ."); join punctuation back to its word. */
function detokenise(text: string): string {
  return text
    .replace(/\s+([,.;:!?%)])/g, '$1')
    .replace(/([($])\s+/g, '$1')
    .replace(/\s+(n't|'s|'re|'ve|'ll|'d|'m)\b/gi, '$1');
}

/** Drops repeated words ("the the", "I I I") and repeated short phrases ("we we're"). */
function dropRepeats(text: string): string {
  return text
    .replace(/\b(\w+(?:'\w+)? \w+(?:'\w+)? \w+(?:'\w+)?)(?:[\s,]+\1\b)+/gi, '$1')
    .replace(/\b(\w+(?:'\w+)? \w+(?:'\w+)?)(?:[\s,]+\1\b)+/gi, '$1')
    .replace(/\b(\w+(?:'\w+)?)(?:[\s,]+\1\b)+/gi, '$1');
}

/** Short words a speaker may legitimately say right before a longer word starting the same way. */
const REAL_SHORT_WORDS = new Set(['a', 'i', 'an', 'in', 'on', 'at', 'to', 'be', 'we', 'he', 'me', 'so', 'no', 'do', 'go', 'is', 'it', 'as', 'or', 'us', 'up', 'of', 'my', 'by', 'the', 'for', 'not', 'can', 'our', 'out', 'all', 'any', 'are', 'but', 'had', 'has', 'his', 'how', 'its', 'let', 'may', 'now', 'one', 'see', 'too', 'was', 'way', 'who', 'yes', 'yet', 'new', 'old', 'end', 'car', 'man', 'use', 'get', 'put', 'set', 'per', 'pre', 'pro', 'co', 'eu', 'uk']);

/** Drops cut-off word starts ("b buttons", "ch chucking", "wire wireless") that captions keep from stutters. */
function dropFragments(text: string): string {
  return text
    .replace(/(^|\s)[b-hj-z](?=\s)/g, '$1')
    .replace(/(?<![\w'’])([A-Za-z]{1,5})\s+(?=([A-Za-z]+))/g, (match, fragment: string, next: string) => {
      const f = fragment.toLowerCase();
      // Longer starts ("wire wireless", "cont control") need a clearly longer word after them.
      const longer = f.length <= 3 ? next.length > f.length : next.length >= f.length + 3;
      return longer && next.toLowerCase().startsWith(f) && !REAL_SHORT_WORDS.has(f) ? '' : match;
    });
}

/** Discourse markers that open spoken sentences but add nothing when quoted in a summary. */
const LEAD_IN = /^(?:(?:yeah|yes|yep|okay|ok|so|well|right|oh|alright|now|and|but|um|uh|anyway|actually|basically|I mean|you know|sure|mm-hmm)\b[,.!]?\s*)+/i;

/** Hedges and fillers that carry no content once a sentence is quoted in writing. */
const HEDGES = /,?\s*\b(?:you know|I mean|sort of|kind of|I guess|basically|actually|obviously|literally|just|really)\b,?(?=\s|$)/gi;

/** Light sentence compression for quotes: hedges out, so a word budget holds more content. */
export function compressSentence(sentence: string): string {
  const out = sentence.replace(HEDGES, (m) => (m.startsWith(',') && m.endsWith(',') ? ',' : ' ')).replace(/\s+/g, ' ').replace(/\s+([,.;:!?])/g, '$1').replace(/,([.!?])/g, '$1').trim();
  return out.length >= 3 ? out : sentence;
}

export function stripLeadIn(sentence: string): string {
  const stripped = sentence.replace(LEAD_IN, '').replace(/^[-–—,\s]+/, '');
  return stripped.length >= 3 ? stripped : sentence;
}

/** Subjects that open a restarted clause: "I've got {disfmarker} we had three videos". */
const RESTART_SUBJECTS = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it', "i've", "we've", "we're", "i'm", "it's", "they're", "you've", "you're", "let's"]);
/** Most words of a false start dropped before a restart. */
const FALSE_START_WORDS = 6;

/** Most words before a marked interruption that its repair may say again. */
const REPAIR_WORDS = 3;

/** Where `word` starts among the last `n` words of `text` (the last such place), or -1. */
function lastWordsIndex(text: string, word: string, n: number): number {
  const found = [...text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)].slice(-n).filter((m) => m[0].toLowerCase() === word.toLowerCase());
  return found.length > 0 ? found[found.length - 1]!.index : -1;
}

/**
 * False starts before a marked interruption (AMI and ICSI mark them {disfmarker}): a short clause
 * broken off and restarted loses its broken start ("I've got {disfmarker} we got {disfmarker} we had
 * three videos" → "we had three videos"). A restart opens with a subject, says the broken start's
 * first word again ("let's provisionally {disfmarker} let's go for…"), or opens a new sentence, which
 * transcribers write with a capital ("So is that {disfmarker} Because there's some people
 * {disfmarker} It would be cool…" → "It would be cool…").
 */
function dropFalseStarts(text: string): string {
  const pieces = text.split(/\s*\{disfmarker\}\s*/);
  if (pieces.length === 1) return text;
  const out: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const next = pieces[i + 1]?.replace(FILLER_WORDS, ' ').trim();
    const nextWord = next ? words(next.replace(/\s+'/g, "'"))[0] : undefined;
    const newSentence = nextWord !== undefined && /^\p{Lu}\p{Ll}/u.test(nextWord) && STOPWORDS.has(nextWord.toLowerCase());
    // The broken clause starts after the last punctuation, or within a sentence that goes on after the
    // last conjunction: "It's your best friend and your {disfmarker} you can…" keeps "and".
    const tail = newSentence ? /(^|[.,;:!?]\s)([^.,;:!?]*)$/.exec(piece) : /(^|[.,;:!?]\s|\b(?:and|but|or|so|because)\s)((?:(?!\b(?:and|but|or|so|because)\s)[^.,;:!?])*)$/i.exec(piece);
    const tailWords = tail ? words(tail[2]!.replace(FILLER_WORDS, ' ').replace(/\s+'/g, "'")) : [];
    const restart = nextWord !== undefined && (newSentence || RESTART_SUBJECTS.has(nextWord.toLowerCase()) || nextWord.toLowerCase() === tailWords[0]?.toLowerCase());
    // "some disks in the {disfmarker} in that back room": the repair says again a word just before the break.
    const repeated = nextWord === undefined ? -1 : lastWordsIndex(piece, nextWord, REPAIR_WORDS);
    if (!restart && repeated >= 0) {
      out.push(piece.slice(0, repeated));
    } else if (restart && tail && tailWords.length > 0 && tailWords.length <= FALSE_START_WORDS) {
      const kept = piece.slice(0, tail.index + tail[1]!.length);
      // "That was quite good, the fact that you could {disfmarker} You didn't have…": the new sentence starts after a full stop.
      out.push(newSentence ? kept.replace(/\s*,\s*$/, '. ') : kept);
    } else if (newSentence && words(piece.replace(FILLER_WORDS, ' ')).length > 0) {
      // A capital after the break starts a new sentence even where the broken one stays ("…many fewer {disfmarker} And it's also…").
      out.push(/[.!?]\s*$/.test(piece) ? piece : `${piece.replace(/[\s,;:]+$/, '')}.`);
    } else out.push(piece);
  }
  return out.join(' ');
}

/** Cleans a caption or transcript turn: markers, fillers, false starts, repeats, stray punctuation, spacing. */
export function cleanTurnText(text: string): string {
  // AMI spells acronyms letter by letter: "T_V_", "L_C_D_".
  let out = dropFalseStarts(text).replace(MARKERS, ' ').replace(/\b((?:[A-Za-z]_)+)/g, (m: string) => m.replace(/_/g, ''));
  out = detokenise(out);
  out = out.replace(FILLER_WORDS, ' ');
  out = dropRepeats(dropFragments(out));
  out = out
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/([,;:])(?:\s*[,;:])+/g, '$1')
    .replace(/^[\s,.;:!?-]+/, '')
    .replace(/,\s*([.!?])/g, '$1')
    .replace(/([.!?])(?:\s*[.,])+/g, '$1')
    .trim();
  return out;
}

export function capitalise(text: string): string {
  return text.replace(/^(["'(]*)([a-z])/, (_m, pre: string, c: string) => pre + c.toUpperCase());
}

export function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}

export function wordCount(text: string): number {
  return words(text).length;
}

const stemCache = new Map<string, string>();
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = stemmer(word);
    stemCache.set(word, s);
  }
  return s;
}

/** Stemmed content words of a text: lower case, no stopwords, no numbers-only or one-letter tokens. */
export function contentTerms(text: string): string[] {
  const out: string[] = [];
  for (const raw of words(text)) {
    const w = raw.toLowerCase().replace(/’/g, "'");
    if (w.length < 3 || STOPWORDS.has(w) || /^\d+$/.test(w)) continue;
    out.push(stem(w.replace(/'s$/, '')));
  }
  return out;
}

export interface Sentence {
  /** Index in the meeting's sentence list. */
  id: number;
  /** Index of its turn among the turns that have text. */
  turn: number;
  /** Index of its turn in the transcript the engine was given: what a citation of it points to. */
  line: number;
  /** When its turn was spoken (epoch ms), if known. */
  spokenAt?: number;
  speaker: string;
  text: string;
  words: number;
  terms: string[];
  /** Noun phrases as written ("remote control", "Nick Williams"): candidates for topic labels. */
  phrases: string[];
  /** 0 at the start of the meeting, 1 at its end. */
  position: number;
  question: boolean;
}

export interface PreparedTranscript {
  turns: { speaker: string; text: string; line: number; spokenAt?: number }[];
  sentences: Sentence[];
  speakers: string[];
  totalWords: number;
}

const PHRASE_HEAD: ReadonlySet<Pos> = new Set(['NOUN', 'PROPN']);

/** Runs of adjectives and nouns ending in a noun, one to three words: "new remote control", "Lenovo". */
export function nounPhrases(values: readonly string[], pos: readonly Pos[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const close = () => {
    if (run.length > 0) out.push(run.slice(-3).join(' '));
    run = [];
  };
  for (let i = 0; i < values.length; i++) {
    const p = pos[i]!;
    const word = values[i]!;
    const content = word.length > 2 && !STOPWORDS.has(word.toLowerCase()) && /\p{L}/u.test(word);
    if (PHRASE_HEAD.has(p) && content) {
      run.push(word);
      continue;
    }
    if (p === 'ADJ' && content && run.length === 0) {
      // An adjective opens a phrase only if a noun follows it.
      if (PHRASE_HEAD.has(pos[i + 1] ?? 'X')) {
        run.push(word);
        continue;
      }
    }
    close();
  }
  close();
  return out;
}

/** Tags that end a statement with a question mark without asking anything: "…plastic, you know?" */
export const TAG_QUESTIONS: readonly (readonly string[])[] = [['you', 'know'], ['right'], ['okay'], ['yeah'], ['eh']];

/** Auxiliaries that open a yes/no question when a pronoun or name follows: "does she…", "can we…". */
const QUESTION_AUX = new Set(['do', 'does', 'did', 'is', 'are', 'was', 'were', 'can', 'could', 'would', 'will', 'shall', 'should', 'have', 'has']);
/** Words that open a spoken sentence before its question: "so does she…". */
const QUESTION_OPENERS = new Set(['so', 'and', 'but', 'well', 'okay', 'ok', 'now', 'then', 'or']);

/**
 * Whether a sentence (its words and their parts of speech) asks something: it ends with "?" after more
 * than a tag ("…plastic, you know?"), or captions lost the mark and it opens as a question does
 * ("does she have transcribers…", an auxiliary before a pronoun or name).
 */
export function isQuestion(values: readonly string[], pos?: readonly Pos[]): boolean {
  if (values[values.length - 1] === '?') {
    const before = values.slice(0, -1).map((v) => v.toLowerCase());
    return !TAG_QUESTIONS.some((tag) => tag.every((w, k) => before[before.length - tag.length + k] === w) && before[before.length - tag.length - 1] === ',');
  }
  if (!pos) return false;
  let i = 0;
  while (i < values.length && (pos[i] === 'PUNCT' || pos[i] === 'INTJ' || QUESTION_OPENERS.has(values[i]!.toLowerCase()))) i++;
  return QUESTION_AUX.has(values[i]?.toLowerCase() ?? '') && pos[i] === 'AUX' && (pos[i + 1] === 'PRON' || pos[i + 1] === 'PROPN');
}

/** Cleans every turn and splits it into sentences with their speaker, line, stemmed terms and noun phrases. */
export function prepareTranscript(transcript: readonly TranscriptTurn[]): PreparedTranscript {
  const turns = transcript
    .map((t, line) => ({
      speaker: (t.speaker || 'Unknown').trim() || 'Unknown',
      text: cleanTurnText(t.text ?? ''),
      line,
      spokenAt: t.spokenAt,
    }))
    .filter((t) => wordCount(t.text) > 0);
  const sentences: Sentence[] = [];
  turns.forEach((turn, turnIndex) => {
    for (const tagged of posSentences(turn.text)) {
      // A turn cut mid-sentence ends on a comma; quoted alone it reads better closed.
      const text = capitalise(stripLeadIn(compressSentence(tagged.text))).replace(/[,;:\s-]+$/, '.');
      const n = wordCount(text);
      if (n === 0) continue;
      sentences.push({
        id: sentences.length,
        turn: turnIndex,
        line: turn.line,
        spokenAt: turn.spokenAt,
        speaker: turn.speaker,
        text,
        words: n,
        terms: contentTerms(text),
        phrases: nounPhrases(tagged.values, tagged.pos),
        position: 0,
        question: isQuestion(tagged.values, tagged.pos),
      });
    }
  });
  const last = Math.max(1, sentences.length - 1);
  for (const s of sentences) s.position = s.id / last;
  const totalWords = turns.reduce((sum, t) => sum + wordCount(t.text), 0);
  const bySpeaker = new Map<string, number>();
  for (const t of turns) bySpeaker.set(t.speaker, (bySpeaker.get(t.speaker) ?? 0) + wordCount(t.text));
  // Speakers in order of how much they said: the first names matter most in one-line overviews.
  const speakers = [...bySpeaker.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => name);
  return { turns, sentences, speakers, totalWords };
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** "A", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
