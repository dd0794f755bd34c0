import { dueDate, type MeetingClock } from './dates.js';
import { joinTokens, tagSentences, type Token } from './nlp.js';
import { attribute, clauseAt, dropFillers, shorten, trimEnd, NOTE_WORDS } from './notes.js';

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
  /** Work suggested only as possible ("we could…", "could we…?"), not as needed ("we should…"). */
  tentative?: boolean;
}

/** Verbs of talking and thinking: "I'll tell you…", "I'm going to say…" announce speech, not a task. */
const NOT_TASKS = new Set([
  'say', 'tell', 'think', 'know', 'mean', 'guess', 'suppose', 'see', 'like', 'love', 'be', 'have', 'want', 'wonder',
  'remember', 'imagine', 'believe', 'hope', 'feel', 'talk', 'ask', 'agree', 'go', 'get', 'try', 'let', 'start', 'draw',
  'stop', 'leave', 'come', 'bet', 'admit', 'answer', 'put', 'keep', 'play', 'laugh', 'mention', 'show', 'give', 'take',
  // The meeting's own procedure: "let's break it up there", "we'll move on", "we'll vote", "let's list all the criteria".
  'break', 'wrap', 'move', 'finish', 'continue', 'begin', 'work', 'explain', 'recap', 'need', 'hurry', 'vote', 'list', 'save',
  'restore', 'repeat', 'indicate', 'address', 'remind', 'propose', 'recommend', 'discuss', 'present', 'describe', 'speak',
  // Supposing and feeling: "let's assume…", "you'd hate…".
  'assume', 'pretend', 'conclude', 'hypothesize', 'expect', 'hate', 'worry', 'hear', 'wait', 'sit', 'end',
  // Handing over and figures of speech: "I'll turn over to…", "I'll allow Sarah to take over", "throw my cards on the table".
  'turn', 'allow', 'attempt', 'throw', 'rub',
  // What a speaker does by saying it: "I'd like to commend the province", "I'll highlight the work of…".
  'commend', 'highlight', 'thank', 'congratulate', 'acknowledge', 'stress', 'emphasise', 'emphasize', 'reiterate', 'welcome',
  // Understanding is no deliverable: "we need to understand the vision".
  'understand', 'learn', 'realise', 'realize', 'recognise', 'recognize', 'accept',
]);

/**
 * Things of the meeting room and its routine: a task about them is done there and then ("let's read
 * digits and go", "change the line width on the whiteboard").
 */
const ROUTINE = new Set(['digit', 'digits', 'whiteboard', 'desktop', 'laptop', 'pen', 'agenda', 'screensaver', 'minutes', 'secretary']);

/** Words that put a task in the meeting itself: "now", "here", "in a second", "in this meeting". */
function duringMeeting(tokens: readonly Token[]): boolean {
  return tokens.some(
    (t, i) => t.normal === 'now' || t.normal === 'here' || (t.normal === 'second' && tokens[i - 1]?.normal === 'a') || (t.normal === 'meeting' && ['this', 'particular'].includes(tokens[i - 1]?.normal ?? '')),
  );
}

/**
 * Work done after a meeting: a team that will send, order or check something has a task, while one that
 * will "make a party first" or "do a single curve" is talking about the meeting in progress.
 */
const DELIVERABLES = new Set([
  'send', 'email', 'mail', 'forward', 'circulate', 'prepare', 'write', 'draft', 'contact', 'call', 'phone', 'check', 'confirm',
  'investigate', 'research', 'order', 'buy', 'purchase', 'book', 'schedule', 'arrange', 'organise', 'organize', 'update', 'fix',
  'test', 'install', 'implement', 'build', 'train', 'run', 'compare', 'collect', 'record', 'transcribe', 'ask', 'report', 'review',
  'submit', 'publish', 'share', 'upload', 'distribute', 'meet', 'chat', 'find', 'figure', 'follow', 'finalise', 'finalize',
]);

/** Words that put a task after the meeting: "next week", "later", "after the meeting", "when we get a chance". */
const LATER = new Set(['next', 'later', 'tomorrow', 'afterwards', 'offline', 'soon', 'tonight']);

/** Clauses a commitment only supposes or explains in: "if we could get some disk", "when you've multiplied…". */
const SUPPOSING = new Set(['if', 'whether', 'unless', 'when', 'whenever', 'like', 'than', 'because', 'cause', 'although', 'though']);

/** Modals that only say someone is able or might ("you can work out…", "I could…"): no commitment. */
const ABILITY = new Set(['can', 'could', 'would', 'might', 'may']);

/** What "you" is told, said to no one by name, that is no task: "you have to multiply everything by two" is how things are done. */
const GENERIC_YOU = new Set(['have', 'has', 'must', 'got']);

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
] as const;

/** First words of the modal chains by which "we" commits. */
const TEAM_COMMITS = new Set(['will', 'shall', 'be', 'are', 'is']);

/** Words between a subject and its modal: "we're all going to". */
const QUANTIFIERS = new Set(['all', 'both']);

const FILLER_BEFORE_TASK = new Set(['also', 'then', 'just', 'please', 'probably', 'definitely', 'maybe', 'first', 'quickly', 'now', 'still', 'actually']);

/** Length of a chain of suggestion ("should", "could", "might want to", "need to") at `at`, or 0. */
function suggestionChain(tokens: readonly Token[], at: number): number {
  if (tokens[at]?.normal === 'might' && tokens[at + 1]?.normal === 'want' && tokens[at + 2]?.normal === 'to') return 3;
  return ['should', 'could', 'might', 'must'].includes(tokens[at]?.normal ?? '') ? 1 : matchChain(tokens, at);
}

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

export interface ReadOptions {
  /**
   * The sentence is in the opening of the meeting, where "we need to choose…" sets out what the meeting
   * is for rather than work for afterwards.
   */
  agenda?: boolean;
  /**
   * Read work suggested rather than taken on ("we should add a hand dynamo", "you could check the
   * chips"): an unassigned task.
   */
  suggested?: boolean;
}

/** Verbs of speech that are work when someone other than the listeners is spoken to: "ask people", "tell Dan". */
const SPEECH_TO = new Set(['ask', 'tell', 'show', 'remind']);

/** Verbs by which a speaker suggests work: "I suggest that we…", "I'd recommend adding…". */
const SUGGEST_VERBS = new Set(['suggest', 'propose', 'recommend']);

/** Modals of work suggested to the team or to anyone: "we should…", "we could…", "you might want to…". */
const SUGGESTING = new Set(['should', 'need', 'needs', 'have', 'has', 'can', 'could', 'might', 'must']);

export function readAction(
  sentence: string,
  speaker: string,
  participants: readonly string[],
  clock: MeetingClock,
  { agenda = false, suggested = false }: ReadOptions = {},
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
    } else if (suggested && ['can', 'could', 'should', 'shall'].includes(t.normal) && tokens[i + 1]?.normal === 'we' && question) {
      // "Could we carry out some research…?": work suggested as a question.
      owner = 'Unassigned';
      chainAt = i + 2;
    } else if (suggested && t.normal === 'i' && SUGGEST_VERBS.has(tokens[i + 1 + (tokens[i + 1]?.pos === 'AUX' ? 1 : 0)]?.lemma ?? '')) {
      // "I suggest that we add a hand dynamo", "I'd recommend adding…": work suggested, for whoever takes it.
      let j = i + 2 + (tokens[i + 1]?.pos === 'AUX' ? 1 : 0);
      if (tokens[j]?.normal === 'that') j++;
      if (['we', 'you'].includes(tokens[j]?.normal ?? '')) j++;
      if (tokens[j]?.pos !== 'VERB') continue;
      owner = 'Unassigned';
      chainAt = j;
    } else if (t.normal === 'i' || /^i['’](?:ll|m)$/.test(t.normal)) {
      owner = speaker;
      if (t.normal !== 'i') chainAt = i + 1;
    } else if (t.normal === 'you' && !question && (suggested || !ABILITY.has(tokens[i + 1]?.normal ?? ''))) {
      owner = vocative ?? '';
      addressed = true;
    } else if ((t.normal === 'we' || /^we['’](?:ll|re)$/.test(t.normal)) && !agenda) {
      owner = 'Team';
    } else if (t.normal === 'let' && (/^['’]s$/.test(tokens[i + 1]?.value ?? '') || tokens[i + 1]?.normal === 'us') && !agenda && !question) {
      // "let's book the venue": the team's, the task right after it.
      owner = 'Team';
      chainAt = i + 2;
    } else if (t.pos === 'PROPN') {
      const name = participants.find((p) => p.toLowerCase().split(/\s+/).includes(t.normal));
      if (name) owner = name;
    }
    // A question commits no one, unless it asks someone ("can you…?") or suggests work ("could we…?").
    if (owner === undefined || (question && !addressed && owner !== 'Unassigned')) continue;
    // A commitment inside a supposition or an explanation is none: "if we could get some disk".
    const opener = clauseAt(tokens, i).opener;
    if (opener && SUPPOSING.has(opener.normal)) continue;
    let k = chainAt;
    let modal = owner === 'Unassigned' ? t.normal : '';
    const lets = t.normal === 'let';
    // Suggested work is the team's or anyone's, said with a modal of suggestion (below) or "I suggest".
    const suggestedByName = owner === 'Unassigned';
    if (suggested && !suggestedByName && (lets || question || (owner !== 'Team' && !(addressed && !vocative)))) continue;
    if (!lets && !suggestedByName && (!addressed || tokens[i + 1]?.normal !== 'you' || !question)) {
      // The contraction "I'll"/"I'm going to" kept whole by the tokenizer already holds the modal.
      if (/^(?:i|we)['’]ll$/.test(t.normal)) {
        if (suggested) continue;
        k = i + 1;
      } else if (/^(?:i['’]m|we['’]re)$/.test(t.normal) && tokens[i + 1]?.normal === 'going' && tokens[i + 2]?.normal === 'to') {
        if (suggested) continue;
        k = i + 3;
      } else {
        modal = tokens[k]?.normal ?? '';
        const n = suggested ? suggestionChain(tokens, k) : matchChain(tokens, k);
        if (n === 0) continue;
        if (suggested) {
          // Its owner is whoever takes it up: nobody yet.
          if (!SUGGESTING.has(modal)) continue;
          owner = 'Unassigned';
          addressed = false;
        } else {
          // The team commits with "will", "going to" or "let's"; "we need to understand…" is an opinion.
          if (owner === 'Team' && !TEAM_COMMITS.has(modal)) continue;
          // "You have to multiply everything by two": the generic "you" of how things are done.
          if (addressed && !vocative && GENERIC_YOU.has(modal)) continue;
        }
        k += n;
      }
    }
    // "I'll need to…", "we're going to have to…": the task starts after every modal.
    for (let more = 1; more > 0; k += more) {
      while (k < tokens.length && (FILLER_BEFORE_TASK.has(tokens[k]!.normal) || tokens[k]!.pos === 'ADV')) k++;
      more = matchChain(tokens, k);
    }
    // "go off and do the drawings": the task is the second verb, done after the meeting.
    let leaves = false;
    if (tokens[k]?.lemma === 'go') {
      let j = k + 1;
      while (tokens[j] && (tokens[j]!.pos === 'ADP' || tokens[j]!.pos === 'ADV')) j++;
      if (tokens[j]?.normal === 'and' && (tokens[j + 1]?.pos === 'VERB' || tokens[j + 1]?.normal === 'do')) {
        k = j + 1;
        leaves = true;
      }
    }
    // "What I will do next Monday is show the state", "the next experiment I'm going to try is to create
    // models": the task is what follows "is", the date said before it.
    // "I'm going to try to create…": the task is what is tried.
    const said = k;
    for (let moved = true; moved; ) {
      moved = false;
      if (tokens[k]?.lemma === 'try' && tokens[k + 1]?.normal === 'to') {
        k += 2;
        moved = true;
      } else if (tokens[k] && tokens[k]!.pos !== 'PUNCT') {
        // Where a verb belongs, whatever the tagger calls it ("try" tagged a noun).

        let j = k + 1;
        while (tokens[j] && (tokens[j]!.entity === 'DATE' || tokens[j]!.pos === 'ADV')) j++;
        if (['is', 'was'].includes(tokens[j]?.normal ?? '')) {
          k = tokens[j + 1]?.normal === 'to' ? j + 2 : j + 1;
          moved = true;
        }
      }
    }
    const verb = tokens[k];
    // After "let's" comes a verb, whatever the tagger says ("let's book" tags "book" a noun).
    // "do" before its object is the main verb, though tagged as an auxiliary ("do the drawings").
    const mainDo = verb?.normal === 'do' && ['DET', 'NOUN', 'PROPN', 'PRON', 'NUM', 'ADJ'].includes(tokens[k + 1]?.pos ?? '');
    // "come up with a name" is work, though "I'll come back to that" is not.
    const comeUp = verb?.lemma === 'come' && tokens[k + 1]?.normal === 'up';
    // "ask people how they feel", "tell Dan": speech to someone else is work, "I'll tell you" is not.
    const toSomeone = SPEECH_TO.has(verb?.lemma ?? '') && ['NOUN', 'PROPN'].includes(tokens[k + 1]?.pos ?? '');
    if (!verb || (verb.pos !== 'VERB' && !mainDo && !(lets && verb.pos === 'NOUN')) || (NOT_TASKS.has(verb.lemma) && !comeUp && !toSomeone)) continue;
    // Suggested work names what is to be done: "we could do it every other week", "we should make it…" do not.
    const pronoun = tokens[k + 1]?.pos === 'PRON' || tokens[k + 1]?.normal === 'them';
    if (suggested && (verb.normal === 'do' || (['make', 'use'].includes(verb.lemma) && pronoun))) continue;
    // "I'll call this to a close", "call that a summary": naming or closing, not calling someone.
    if (verb.lemma === 'call' && pronoun) continue;
    let rest = tokens.slice(k).filter((x) => x.value !== '?' && x.value !== '.' && x.value !== '!');
    const due = dueDate(joinTokens(tokens.slice(said)), clock);
    const span = dateSpan(rest);
    if (due && span) rest = [...rest.slice(0, span[0]), ...rest.slice(span[1] + 1)];
    const objectWords = rest.filter((x) => x.pos === 'NOUN' || x.pos === 'PROPN' || x.pos === 'NUM').length;
    if (objectWords === 0) continue; // "I'll do it." says no task
    const later = due !== undefined || leaves || rest.some((x) => LATER.has(x.normal));
    if (!later && (duringMeeting(rest) || rest.some((x) => ROUTINE.has(x.normal)))) continue;
    // The team's work after the meeting is said as such: a deliverable, a date, or "later".
    if (owner === 'Team' && !later && !comeUp && !DELIVERABLES.has(verb.lemma)) continue;
    // First person inside a request is the one asking: "send me the file" → "send Ann the file".
    // The task is its first clause: ", but thank you very much" is not part of it.
    // A comma before a new verb in its base form opens another clause too: "evaluate it, try to do it…".
    const after = rest.findIndex(
      (x, j) => j > 2 && x.value === ',' && (['CCONJ', 'SCONJ'].includes(rest[j + 1]?.pos ?? '') || (rest[j + 1]?.pos === 'VERB' && rest[j + 1]!.normal === rest[j + 1]!.lemma)),
    );
    if (after > 0) rest = rest.slice(0, after);
    const short = shorten(attribute(rest, speaker), NOTE_WORDS - 4);
    if (!short) continue;
    // "…see what they think and": the words a task cannot end on go.
    const task = joinTokens(trimEnd(short)).replace(/[\s,;:]+$/, '');
    if (!task) continue;
    const item: ActionItem = { owner, task: task.charAt(0).toUpperCase() + task.slice(1), due: due?.label, addressed: addressed && !owner };
    return suggested && ABILITY.has(modal) ? { ...item, tentative: true } : item;
  }
  return undefined;
}
