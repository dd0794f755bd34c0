import { dueDate, type MeetingClock } from './dates.js';
import { joinTokens, tagSentences, type Token } from './nlp.js';
import { attribute, dropFillers, shorten, NOTE_WORDS } from './notes.js';

/**
 * An action item read from one sentence: who does what, by when. A commitment ("I'll send…") is the
 * speaker's; a request ("can you check…", "you'll draft…") belongs to the person addressed, by name
 * ("Ben, can you…") or else the one who answers; "we need to…" and "let's…" are the team's; a named
 * participant ("Nick will…") is that person's. Someone able to do something ("you can work out…") is
 * not asked to.
 */
export interface ActionItem {
  owner: string;
  task: string;
  due?: string;
  /** Owner is the next speaker (who was asked). */
  addressed: boolean;
}

/** Verbs of talking and thinking: "I'll tell you…", "I'm going to say…" announce speech, not a task. */
const NOT_TASKS = new Set([
  'say', 'tell', 'think', 'know', 'mean', 'guess', 'suppose', 'see', 'like', 'love', 'be', 'have', 'want', 'wonder',
  'remember', 'imagine', 'believe', 'hope', 'feel', 'talk', 'ask', 'agree', 'go', 'get', 'try', 'let', 'start', 'draw',
  'stop', 'leave', 'come', 'bet', 'admit', 'answer', 'put', 'keep', 'play', 'laugh', 'mention', 'show', 'give', 'take',
  // The meeting's own procedure: "let's break it up there", "we'll move on".
  'break', 'wrap', 'move', 'finish', 'continue', 'begin', 'work', 'explain', 'recap', 'need', 'hurry',
]);

/** Modals that only say someone is able or might ("you can work out…", "I could…"): no commitment from "you". */
const ABILITY = new Set(['can', 'could', 'would', 'might', 'may']);

/** Modal chains that make a commitment or a request: the task starts after them. */
const COMMIT = [
  ['will'],
  ['shall'],
  ['be', 'going', 'to'],
  ['am', 'going', 'to'],
  ['is', 'going', 'to'],
  ['are', 'going', 'to'],
  ['need', 'to'],
  ['needs', 'to'],
  ['have', 'to'],
  ['has', 'to'],
  ['should'],
  ['must'],
  ['can'],
  ['could'],
  ['would'],
] as const;

/** First words of the modal chains by which "we" commits. */
const TEAM_COMMITS = new Set(['will', 'shall', 'be', 'are', 'is']);

/** Words between a subject and its modal: "we're all going to". */
const QUANTIFIERS = new Set(['all', 'both']);

const FILLER_BEFORE_TASK = new Set(['also', 'then', 'just', 'please', 'probably', 'definitely', 'maybe', 'first', 'quickly', 'now', 'still', 'actually']);

function matchChain(tokens: readonly Token[], at: number): number {
  for (const chain of COMMIT) {
    if (chain.every((w, k) => tokens[at + k]?.normal === w)) return chain.length;
  }
  return 0;
}

/** The first date phrase of the tokens, with the preposition before it ("by Friday"), as an index range. */
function dateSpan(tokens: readonly Token[]): [number, number] | undefined {
  const start = tokens.findIndex((t) => t.entity === 'DATE');
  if (start < 0) return undefined;
  let end = start;
  while (tokens[end + 1]?.entity === 'DATE') end++;
  const from = start > 0 && ['by', 'on', 'before', 'until', 'till', 'in', 'for'].includes(tokens[start - 1]!.normal) ? start - 1 : start;
  return [from, end];
}

/**
 * `agenda`: the sentence is in the opening of the meeting, where "we need to choose…" sets out what the
 * meeting is for rather than work for afterwards.
 */
export function readAction(
  sentence: string,
  speaker: string,
  participants: readonly string[],
  clock: MeetingClock,
  agenda = false,
): ActionItem | undefined {
  const tagged = tagSentences(sentence)[0];
  if (!tagged) return undefined;
  // "we're all going to": the quantifier after a pronoun subject stands between it and its modal.
  const tokens = dropFillers(tagged.tokens).filter(
    (t, i, all) => t.pos !== 'INTJ' && !(QUANTIFIERS.has(t.normal) && (all[i - 1]?.pos === 'PRON' || /^['’]/.test(all[i - 1]?.value ?? ''))),
  );
  const question = tokens[tokens.length - 1]?.value === '?';
  // "Ben, can you…": the person addressed by name.
  const vocative = tokens[1]?.value === ',' ? participants.find((p) => p.toLowerCase().split(/\s+/).includes(tokens[0]!.normal)) : undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    let owner: string | undefined;
    let addressed = false;
    let chainAt = i + 1;
    // "can you / could you / would you (please) send…"
    if (['can', 'could', 'would', 'will'].includes(t.normal) && tokens[i + 1]?.normal === 'you' && question) {
      owner = vocative ?? '';
      addressed = true;
      chainAt = i + 2;
    } else if (t.normal === 'i' || /^i['’](?:ll|m)$/.test(t.normal)) {
      owner = speaker;
      if (t.normal !== 'i') chainAt = i + 1;
    } else if (t.normal === 'you' && !question && !ABILITY.has(tokens[i + 1]?.normal ?? '')) {
      owner = vocative ?? '';
      addressed = true;
    } else if ((t.normal === 'we' || /^we['’](?:ll|re)$/.test(t.normal)) && !agenda) {
      owner = 'Team';
    } else if (t.normal === 'let' && /^['’]s$/.test(tokens[i + 1]?.value ?? '') && !agenda && !question) {
      // "let's book the venue": the team's, the task right after it.
      owner = 'Team';
      chainAt = i + 2;
    } else if (t.pos === 'PROPN') {
      const name = participants.find((p) => p.toLowerCase().split(/\s+/).includes(t.normal));
      if (name) owner = name;
    }
    // A question commits no one, unless it asks someone ("can you…?").
    if (owner === undefined || (question && !addressed)) continue;
    let k = chainAt;
    const lets = t.normal === 'let';
    if (!lets && (!addressed || tokens[i + 1]?.normal !== 'you' || !question)) {
      // The contraction "I'll"/"I'm going to" kept whole by the tokenizer already holds the modal.
      if (/^(?:i|we)['’]ll$/.test(t.normal)) k = i + 1;
      else if (/^(?:i['’]m|we['’]re)$/.test(t.normal) && tokens[i + 1]?.normal === 'going' && tokens[i + 2]?.normal === 'to') k = i + 3;
      else {
        const n = matchChain(tokens, k);
        if (n === 0) continue;
        // The team commits with "will", "going to" or "let's"; "we need to understand…" is an opinion.
        if (owner === 'Team' && !TEAM_COMMITS.has(tokens[k]!.normal)) continue;
        k += n;
      }
    }
    // "I'll need to…", "we're going to have to…": the task starts after every modal.
    for (let more = 1; more > 0; k += more) {
      while (k < tokens.length && (FILLER_BEFORE_TASK.has(tokens[k]!.normal) || tokens[k]!.pos === 'ADV')) k++;
      more = matchChain(tokens, k);
    }
    // "go off and do the drawings": the task is the second verb.
    if (tokens[k]?.lemma === 'go') {
      let j = k + 1;
      while (tokens[j] && (tokens[j]!.pos === 'ADP' || tokens[j]!.pos === 'ADV')) j++;
      if (tokens[j]?.normal === 'and' && (tokens[j + 1]?.pos === 'VERB' || tokens[j + 1]?.normal === 'do')) k = j + 1;
    }
    const verb = tokens[k];
    // "what we need to do is have…": the verb is the subject of what follows, not the task.
    if (tokens[k + 1]?.pos === 'AUX' && ['is', 'was'].includes(tokens[k + 1]!.normal)) continue;
    // After "let's" comes a verb, whatever the tagger says ("let's book" tags "book" a noun).
    // "do" before its object is the main verb, though tagged as an auxiliary ("do the drawings").
    const mainDo = verb?.normal === 'do' && tokens[k + 1] !== undefined && !['VERB', 'AUX', 'PART'].includes(tokens[k + 1]!.pos);
    if (!verb || (verb.pos !== 'VERB' && !mainDo && !(lets && verb.pos === 'NOUN')) || NOT_TASKS.has(verb.lemma)) continue;
    let rest = tokens.slice(k).filter((x) => x.value !== '?' && x.value !== '.' && x.value !== '!');
    const due = dueDate(joinTokens(rest), clock);
    const span = dateSpan(rest);
    if (due && span) rest = [...rest.slice(0, span[0]), ...rest.slice(span[1] + 1)];
    const objectWords = rest.filter((x) => x.pos === 'NOUN' || x.pos === 'PROPN' || x.pos === 'NUM').length;
    if (objectWords === 0) continue; // "I'll do it." says no task
    // First person inside a request is the one asking: "send me the file" → "send Ann the file".
    // The task is its first clause: ", but thank you very much" is not part of it.
    const after = rest.findIndex((x, j) => j > 2 && x.value === ',' && ['CCONJ', 'SCONJ'].includes(rest[j + 1]?.pos ?? ''));
    if (after > 0) rest = rest.slice(0, after);
    const short = shorten(attribute(rest, speaker), NOTE_WORDS - 4);
    if (!short) continue;
    const task = joinTokens(short).replace(/[\s,;:]+$/, '');
    if (!task) continue;
    return { owner, task: task.charAt(0).toUpperCase() + task.slice(1), due: due?.label, addressed: addressed && !owner };
  }
  return undefined;
}
