import type { Minutes, MinutesItem } from '../minutes.js';
import type { Analysis } from './analysis.js';
import { AGREEMENT, DECIDED, DECISION_CUES, SETTLED, NOT_ACCEPTING, PROPOSAL_CUES, PROPOSALS, cueScore } from './cues.js';
import { capitaliseFirst, DOCUMENT_NOTE_WORDS, listOfNotes, noteOf, type Context } from './context.js';
import { joinTokens, tagSentences, type Token } from './nlp.js';
import { clauseAt, clauseWithEntity, noteFromTokens, writeNote } from './notes.js';
import { cosine } from './rank.js';
import { statement } from './summaries.js';
import type { Candidate } from './select.js';
import { contentTerms, joinNames, wordCount, type Sentence } from './text.js';

/**
 * Key decisions: what was decided or agreed, each led by who decided. Three kinds: decisions said as
 * such ("we agreed that…"), proposals the others accept ("let's go with Lenovo" — "Yes, agreed"), and
 * targets or amounts set ("a selling price of 25 euros"). A question, a proposal nobody took up, a
 * hypothetical ("if we could…") and a broken sentence are none.
 */

/** Nouns of an amount set: "a selling price at twenty five Euros", "a profit aim of fifty million". */
const TARGET_TERMS: ReadonlySet<string> = new Set(contentTerms('price cost costs budget target aim profit margin fee salary funding spending amount'));

/** Most tokens between an amount's noun and its figure: "production costs of maximum twelve". */
const AMOUNT_SPAN = 6;
/** Entities that state an amount (wink-nlp's entity types). */
const AMOUNT_ENTITIES: ReadonlySet<string> = new Set(['MONEY', 'PERCENT', 'CARDINAL']);

/** Verbs that commit money: "the team has allocated £26.5 million", "the government announced $252 million" (not "users would spend more"). */
const FUNDING_VERBS = new Set(['allocate', 'announce', 'invest', 'commit', 'introduce', 'launch', 'set', 'provide', 'approve', 'fund', 'give', 'earmark']);

/**
 * Whether a sentence states an amount set: money or a percentage with a money noun or a verb that
 * commits it ("a selling price at twenty five Euros", "we have allocated £26.5 million"), or a number
 * just after a money noun ("production costs of maximum twelve") — not inside a supposition ("if we're
 * talking twenty five Euros as a price").
 */
function statesAmount(s: Sentence): boolean {
  if (s.question) return false;
  const tokens = tagSentences(s.text).flatMap((t) => t.tokens);
  const money = s.terms.some((t) => TARGET_TERMS.has(t)) || tokens.some((t) => t.pos === 'VERB' && FUNDING_VERBS.has(t.lemma));
  const target = tokens.findIndex((t) => t.pos === 'NOUN' && contentTerms(t.value).some((term) => TARGET_TERMS.has(term)));
  const amount = tokens.findIndex(
    (t, i) =>
      (money && (t.entity === 'MONEY' || t.entity === 'PERCENT')) || (target >= 0 && i > target && i <= target + AMOUNT_SPAN && t.entity !== undefined && AMOUNT_ENTITIES.has(t.entity)),
  );
  if (amount < 0) return false;
  const opener = clauseAt(tokens, amount).opener;
  return !(opener && NOT_PROPOSING.has(opener.normal));
}

/** Who accepted a proposal, the lines they said it in, and whether it was more than one listener's "yeah". */
export interface Acceptance {
  speakers: string[];
  lines: number[];
  firm: boolean;
}

/** A reply that only shows someone listens ("Yeah.", "Right.", "Okay.") unless more follows it. */
const BACKCHANNEL = /^(?:yeah|yep|yes|right|okay|ok|mm|probably)\W*$/i;

/** Turns a reply is looked for in after a proposal. */
const REPLY_TURNS = 4;

/**
 * Who accepted a proposal: the others who answer it with agreement ("Yeah.", "Right, with menus")
 * before anyone says anything else, the proposer's own short follow-ups aside (backchannel such as
 * "Mm-hmm" is no turn once cleaned). Undefined when someone objects or the talk moves on first.
 */
export function acceptedBy(a: Analysis, s: Sentence): Acceptance | undefined {
  // The proposal ends its speaker's turn or nearly: what follows it in the turn would be a new point.
  const laterInTurn = a.sentences.filter((x) => x.turn === s.turn && x.id > s.id).length;
  if (laterInTurn > 2) return undefined;
  const speakers: string[] = [];
  const lines: number[] = [];
  let firm = false;
  for (let k = s.turn + 1; k < Math.min(a.turns.length, s.turn + 1 + REPLY_TURNS); k++) {
    const t = a.turns[k]!;
    const words = wordCount(t.text);
    if (t.speaker === s.speaker) {
      if (words > 25) break;
      continue;
    }
    const opening = t.text.split(/(?<=[.!?])\s/)[0] ?? '';
    if (AGREEMENT.test(t.text.trim()) && !NOT_ACCEPTING.test(opening)) {
      if (!speakers.includes(t.speaker)) speakers.push(t.speaker);
      lines.push(t.line);
      firm ||= !BACKCHANNEL.test(opening.trim());
    } else break;
  }
  return speakers.length > 0 ? { speakers, lines, firm: firm || speakers.length > 1 } : undefined;
}

/** Questions that propose what the team does: "why don't we get one with another headset?", "shall we…?". */
const PROPOSING_QUESTIONS: readonly (readonly string[])[] = [
  ['why', 'do', 'not', 'we'],
  ['shall', 'we'],
  ['should', 'we'],
  ['can', 'we'],
  ['could', 'we'],
  ['how', 'about', 'we'],
  ['is', 'there', 'any', 'way', 'we', 'can'],
  ['is', 'there', 'any', 'way', 'we', 'could'],
];

/** The speaker's next statement after a sentence, in their turn or their next one: what a proposal says in detail. */
function elaboration(a: Analysis, s: Sentence): Sentence | undefined {
  return a.sentences.slice(s.id + 1, s.id + 6).find((x) => x.speaker === s.speaker && x.turn <= s.turn + 2 && statement(x));
}

/**
 * What a question proposes, written as the proposal: "Why don't we get one with a different headset?"
 * → "The team will get one with a different headset."; "What about a dual function?" → "A dual
 * function: " and what its speaker says of it next. Undefined when it proposes nothing a reader could act on.
 */
function proposedInQuestion(c: Context, s: Sentence): { text: string; lines: number[] } | undefined {
  const tokens = tagSentences(s.text)[0]?.tokens ?? [];
  const options = c.document ? { maxWords: DOCUMENT_NOTE_WORDS } : { speaker: s.speaker };
  for (const phrase of PROPOSING_QUESTIONS) {
    const at = tokens.findIndex((_, i) => phrase.every((w, k) => tokens[i + k]?.normal === w));
    if (at < 0) continue;
    const rest = tokens.slice(at + phrase.length).filter((t) => t.value !== '?');
    const text = writeNote(`We will ${joinTokens(rest)}.`, options);
    return complete(text) ? { text, lines: [s.line] } : undefined;
  }
  const at = tokens.findIndex((t, i) => ['what', 'how'].includes(t.normal) && tokens[i + 1]?.normal === 'about');
  if (at < 0) return undefined;
  const proposed = writeNote(joinTokens(tokens.slice(at + 2)).replace(/\?$/, ''), options).replace(/[.!?]$/, '');
  const detail = wordCount(proposed) >= 2 ? elaboration(c.a, s) : undefined;
  const detailNote = detail ? noteOf(c, detail) : '';
  if (!detail || !complete(detailNote)) return undefined;
  return { text: `${capitaliseFirst(proposed)}: ${detailNote.charAt(0).toLowerCase()}${detailNote.slice(1)}`, lines: [s.line, detail.line] };
}

/**
 * Words that open a clause which only supposes, explains or compares: a cue inside one ("if we could
 * get some disk", "so we can all see it", "it would be like if…") proposes nothing.
 */
const NOT_PROPOSING = new Set(['if', 'whether', 'unless', 'when', 'whenever', 'though', 'although', 'because', 'cause', 'since', 'so', 'like', 'than', 'until', 'while', 'whereas']);
/** Words that open a relative clause, or after "be" a description ("it should be where you have it"). */
const RELATIVE = new Set(['that', 'which', 'who', 'where', 'what', 'how']);
/** Clauses opened by these state the decision in the clause after them: "As we agreed, we won't use a speaker." */
const DECISION_ASIDE = new Set(['as', 'since', 'because']);

/** A clause of a sentence that holds a cue phrase, as tokens from the clause's start. */
interface CueClause {
  tokens: Token[];
  /** The clause's first token. */
  start: number;
  /** The token the cue phrase starts at. */
  at: number;
  /** What opened the clause ("if", "but", a comma), if anything did. */
  opener?: Token;
}

/** The clauses of a sentence in which a cue pattern matches, in order. */
function cueClauses(text: string, pattern: RegExp): CueClause[] {
  const tokens = tagSentences(text).flatMap((t) => t.tokens);
  const offsets: number[] = [];
  let from = 0;
  for (const t of tokens) {
    const found = text.indexOf(t.value, from);
    offsets.push(found < 0 ? from : found);
    if (found >= 0) from = found + t.value.length;
  }
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  const out: CueClause[] = [];
  for (const match of text.matchAll(global)) {
    const at = offsets.findIndex((o, i) => o <= match.index && (offsets[i + 1] ?? Number.POSITIVE_INFINITY) > match.index);
    if (at < 0) continue;
    out.push({ tokens, at, ...clauseAt(tokens, at) });
  }
  return out;
}

/** Words that open a subordinate clause, whatever the tagger calls them. */
const SUBORDINATING = new Set(['as', 'if', 'whilst', 'while', 'although', 'though', 'because', 'when', 'unless', 'whereas', 'since']);

const MODALS = new Set(['will', 'would', 'can', 'could', 'should', 'shall', 'must', 'might', 'may']);

/** Parts of speech a finished statement cannot end on: "…the team should.", "…because they're." */
const OPEN_END = new Set(['AUX', 'PART', 'ADP', 'DET', 'CCONJ', 'SCONJ']);

/**
 * Whether a note reads as a decision: a statement of four words or more with a verb and something it
 * is about, that does not stop before its object ("Instead of the meaning.", "The team decided, 'cause
 * it's not on the list." and "Project Manager thinks the team should." are none).
 */
export function complete(note: string): boolean {
  if (wordCount(note) < 4 || /\?$/.test(note)) return false;
  const all = tagSentences(note).flatMap((t) => t.tokens);
  const tokens = all.filter((t) => t.pos !== 'PUNCT');
  const last = tokens[tokens.length - 1];
  // A preposition ends a note only as a verb's particle: "are definitely out", not "…the price of".
  const particle = last?.pos === 'ADP' && ['VERB', 'AUX', 'ADV'].includes(tokens[tokens.length - 2]?.pos ?? '');
  if (!last || (OPEN_END.has(last.pos) && !particle)) return false;
  // A main clause with a verb: "As Ann said at the outset." and "On the funding side, whilst the Minister has…" have none.
  const clauses: Token[][] = [[]];
  for (const t of all) {
    if (t.value === ',' || t.value === ';') clauses.push([]);
    else if (t.pos === 'PUNCT') continue;
    else clauses[clauses.length - 1]!.push(t);
  }
  const main = clauses.some((k) => k.length > 0 && !(k[0]!.pos === 'SCONJ' || SUBORDINATING.has(k[0]!.normal)) && k.some((t) => t.pos === 'VERB' || t.pos === 'AUX'));
  if (!main) return false;
  // A modal needs its verb: "The team can some strawberry first." lost it in a gap.
  const verbless = tokens.some((t, i) => MODALS.has(t.normal) && t.pos === 'AUX' && !tokens.slice(i + 1, i + 4).some((x) => x.pos === 'VERB' || x.pos === 'AUX'));
  if (verbless) return false;
  // What the verb is about follows it: "The team could use it." and "The team can do that." say nothing of what.
  const verb = Math.max(0, tokens.findIndex((t) => t.pos === 'VERB' || (t.pos === 'AUX' && !MODALS.has(t.normal))));
  // After "be" the state is the point: "hand dynamos are definitely out".
  const about = tokens[verb]?.lemma === 'be' ? ['NOUN', 'PROPN', 'NUM', 'ADJ', 'ADV', 'ADP'] : ['NOUN', 'PROPN', 'NUM', 'ADJ'];
  return tokens.slice(verb + 1).some((t) => about.includes(t.pos));
}

/** The note of a sentence from the clause its decision or proposal is in, the talk before it left out. */
function clauseNote(c: Context, s: Sentence, clause: CueClause): string {
  // A decision or proposal joined to what came before by "and", "but" or a comma stands alone.
  const own = clause.opener && (clause.opener.pos === 'CCONJ' || clause.opener.pos === 'PUNCT');
  const tokens = own ? clause.tokens.slice(clause.start) : clause.tokens;
  return noteFromTokens(tokens, c.document ? { maxWords: DOCUMENT_NOTE_WORDS } : { speaker: s.speaker });
}

/** Words before "we decided" that make it a reference to a decision, not one: "what we decided". */
const REFERENCE = new Set(['what', 'how', 'whatever', 'which', 'why', 'where', 'when']);

/**
 * What a sentence decides: said as a decision ("we agreed that…"), with what was decided after it,
 * outside a supposition and not a mere reference ("what we decided"); undefined if it decides nothing.
 */
function decidedClause(s: Sentence): CueClause | undefined {
  if (s.question) return undefined;
  const settled = cueClauses(s.text, SETTLED).find((k) => !(k.opener && NOT_PROPOSING.has(k.opener.normal)));
  if (settled) return settled;
  return cueClauses(s.text, DECIDED).find((k) => {
    if (k.opener && NOT_PROPOSING.has(k.opener.normal) && !DECISION_ASIDE.has(k.opener.normal)) return false;
    if (REFERENCE.has(k.tokens[k.at - 1]?.normal ?? '')) return false;
    // "we decided, 'cause…" says nothing of what: the verb needs what follows it.
    const verb = k.tokens.findIndex((t, i) => i > k.at && t.pos === 'VERB');
    const next = verb < 0 ? undefined : k.tokens[verb + 1];
    return next !== undefined && next.pos !== 'PUNCT' && !NOT_PROPOSING.has(next.normal);
  });
}

/** Verbs that talk about the meeting rather than choose anything: "we'll see", "we can discuss it all at once". */
const NOT_CHOOSING = new Set(['say', 'tell', 'talk', 'discuss', 'see', 'think', 'know', 'mean', 'guess', 'suppose', 'wonder', 'ask', 'hear', 'imagine', 'remember', 'show', 'explain', 'mention', 'start', 'finish', 'continue', 'move', 'stop', 'wrap', 'begin', 'come']);

/** Modals of what only might be done: "we can have colours", "maybe we could…". */
const TENTATIVE = new Set(['can', 'could', 'might', 'may', 'maybe']);

/** Whether a proposal only says what might be done: a tentative modal or "maybe" in its first words. */
function tentative(proposal: CueClause | Sentence): boolean {
  const words = 'tokens' in proposal ? proposal.tokens.slice(proposal.at, proposal.at + 4).map((t) => t.normal) : proposal.text.toLowerCase().split(/\s+/).slice(0, 8);
  return words.some((w) => TENTATIVE.has(w));
}

/**
 * What a sentence proposes: a proposal ("we could…", "let's…") in a clause of its own — not inside a
 * supposition or an explanation ("if we could get some disk", "so we can all see it") — whose verb
 * chooses something rather than talks about the meeting.
 */
function proposedClause(s: Sentence): CueClause | undefined {
  if (s.question) return undefined;
  for (const [pattern] of PROPOSALS) {
    for (const k of cueClauses(s.text, pattern)) {
      if (k.opener && NOT_PROPOSING.has(k.opener.normal)) continue;
      // "that" after a verb of saying or thinking opens what is proposed ("I think that we should…"); after a
      // noun ("attitudes that we can identify", "…and that we can…") or "so" it describes or explains.
      const before = k.opener ? k.tokens[k.tokens.indexOf(k.opener) - 1] : undefined;
      if (k.opener && RELATIVE.has(k.opener.normal) && before?.pos !== 'VERB') continue;
      const verbAt = k.tokens.findIndex((t, i) => i > k.at && (t.pos === 'VERB' || t.pos === 'AUX') && !MODALS.has(t.normal) && !['need', 'have', 'has', 'to'].includes(t.normal));
      const verb = k.tokens[verbAt];
      if (verb && NOT_CHOOSING.has(verb.lemma)) continue;
      // "This would be like…", "it should be where you have it": a comparison or a description, not a choice.
      const next = verb?.lemma === 'be' ? k.tokens[verbAt + 1] : undefined;
      if (next && (next.normal === 'like' || next.pos === 'SCONJ' || RELATIVE.has(next.normal))) continue;
      return k;
    }
  }
  return undefined;
}

export function decisions(c: Context): Minutes {
  const { a } = c;
  const pool: Candidate[] = [];
  const notes = new Map<number, MinutesItem>();
  for (const s of a.sentences) {
    // Short statements can carry a whole decision ("It has to be compatible with other things.").
    if (s.words < 4 || s.terms.length === 0 || (s.terms.length < 2 && s.words < 6)) continue;
    // Captions lose question marks: "Is there any way we can have a microphone we pass around" asks all the same.
    const asked = s.question || /^(?:is there|why don't|shall we|should we|can we|could we)\b/i.test(s.text) ? proposedInQuestion(c, s) : undefined;
    // A proposal asked as a question ("What about a dual function?") says what it is about in its detail.
    const detail = asked && asked.lines.length > 1 ? a.sentences.find((x) => x.line === asked.lines[1] && x.id > s.id) : undefined;
    const closeness = Math.max(cosine(a.vectors[s.id]!, a.meetingCentroid), detail ? cosine(a.vectors[detail.id]!, a.meetingCentroid) : 0);
    const decided = decidedClause(s);
    const proposed = decided ? undefined : proposedClause(s);
    const clause = decided ?? proposed;
    const proposal = proposed || asked ? cueScore(s.text, PROPOSAL_CUES) : 0;
    const agreed = proposal > 0 || decided ? acceptedBy(a, s) : undefined;
    // What only might be done ("we can…", "maybe we could…") is decided when taken up by more than one listener's "yeah".
    const taken = agreed && proposal > 0 && (agreed.firm || !tentative(clause ?? s)) ? agreed : undefined;
    const amount = statesAmount(s);
    const weight = Math.max(decided ? 3 : 0, taken ? 1.5 + proposal / 2 + 0.5 * taken.speakers.length : 0, amount ? 2 : 0);
    // A regeneration also admits proposals nobody answered, so it can show another selection.
    const fallback = c.variant > 0 && proposed ? cueScore(s.text, DECISION_CUES) / 2 : 0;
    const cue = Math.max(weight, fallback);
    if (cue <= 0) continue;
    // An amount is the point of its sentence: what follows its clause ("…, which I don't know in pounds") is not.
    const text = asked?.text ?? (clause ? clauseNote(c, s, clause) : clauseWithEntity(noteOf(c, s), AMOUNT_ENTITIES));
    if (!complete(text)) continue;
    const by = taken ?? (decided ? agreed : undefined);
    const lead = c.document ? undefined : by ? `${s.speaker}, agreed by ${joinNames(by.speakers)}` : s.speaker;
    notes.set(s.id, { lead, text, lines: [...(asked?.lines ?? [s.line]), ...(by?.lines ?? [])] });
    pool.push({ sentence: s, score: cue * (0.25 + a.centrality[s.id]! + closeness), vector: a.vectors[s.id]! });
  }
  return listOfNotes(c, pool, (s) => notes.get(s.id), 'No explicit decision was recorded in this meeting.');
}
