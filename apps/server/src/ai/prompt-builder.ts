import { PROMPTS, findLanguage, type PromptKey, type SummaryDepth, type SummarySettings } from '@mbox/shared';
import { lengthBudget } from './length.js';
import { capitalise, cleanTurnText } from './offline/text.js';
import type { ChatMessage, TranscriptTurn } from './types.js';

export const HTML_FORMAT_RULE =
  'Format: answer in simple HTML using only <p>, <h3>, <ul>, <ol>, <li>, <b>, <i> and <br>. ' +
  'No Markdown, no code fences, no <html> or <body>, no title line repeating the task.';

const DEPTH_RULES: Record<SummaryDepth, string> = {
  standard: 'Depth: standard. Cover the main points concisely.',
  deep: 'Depth: deep level of details. Go into the details: arguments, figures, proposals and objections, with who raised them.',
  speaker:
    'Depth: by speaker. Organise the answer by participant: one section per speaker, headed by their name in <h3>, with what they contributed.',
  abstract: 'Depth: abstract. Write an abstractive overview in your own words, without quoting the transcript.',
};

/** What the engine reads: a meeting transcript, or a document (an article, a pasted text, a video's captions). */
export type SourceMaterial = 'meeting' | 'document';

const MATERIAL: Record<
  SourceMaterial,
  { role: string; noun: string; intro: string; partOf: string; languageOf: string }
> = {
  meeting: {
    role:
      'You are Mbox, an assistant that works on transcripts of Google Meet meetings captured from live captions.\n' +
      'Captions may contain recognition errors and fillers; read through them. Never invent facts, names, numbers or dates.',
    noun: 'meeting',
    intro: 'Meeting transcript (one numbered line per turn, "[n] Speaker: text"):',
    partOf: 'a long meeting transcript captured from live captions',
    languageOf: 'the language the meeting was held in',
  },
  document: {
    role:
      'You are Mbox, an assistant that summarises documents for busy readers: web articles, pasted texts and the captions of videos.\n' +
      'Video captions may contain recognition errors; read through them. Never invent facts, names, numbers or dates.\n' +
      'The task below is written for meetings: apply it to the document, with its author or source in place of the participants, ' +
      'and leave out sections (such as action items) the document has nothing for.',
    noun: 'document',
    intro: 'Document (one paragraph per line, each after the label of its source):',
    partOf: 'a long document',
    languageOf: 'the language of the document',
  },
};

/** The transcript as the model reads it: one "Speaker: text" line per turn, annotations and fillers removed. */
export function formatTranscriptLine(turn: TranscriptTurn): string {
  return `${turn.speaker.trim() || 'Unknown'}: ${capitalise(cleanTurnText(turn.text))}`;
}

/** A meeting line as the model reads it: numbered, so the answer can cite it as `[n]`. */
export function formatNumberedLine(turn: TranscriptTurn, n: number): string {
  return `[${n}] ${formatTranscriptLine(turn)}`;
}

/**
 * How a meeting answer cites its lines (docs/ai.md, "Citations"): each point ends with the numbers
 * of the lines it comes from, which become links to those lines.
 */
export const CITATION_RULE =
  'Citations: every transcript line starts with its number in square brackets. End every list item and every ' +
  'paragraph with the numbers of the lines it comes from, in square brackets, like [4] or [4, 12]. ' +
  'Cite only numbers of the transcript, and state no name, number or date that the cited lines do not hold.';

export function formatTranscript(turns: readonly TranscriptTurn[]): string {
  return turns
    .map((t) => ({ speaker: t.speaker, text: cleanTurnText(t.text) }))
    .filter((t) => t.text.length > 0)
    .map(formatTranscriptLine)
    .join('\n');
}

export function languageRule(code: string | undefined, material: SourceMaterial = 'meeting'): string {
  const language = code ? findLanguage(code) : undefined;
  return language ? `Language: write the whole answer in ${language.name}.` : `Language: write in ${MATERIAL[material].languageOf}.`;
}

export function lengthRule(promptKey: PromptKey, settings: SummarySettings): string {
  const shape = PROMPTS[promptKey].shape;
  const budget = lengthBudget(shape, settings);
  if (shape === 'sentence') return 'Length: exactly one sentence.';
  if (shape === 'list') return budget.maxWords > 0 ? `Length: at most ${budget.maxWords} words in total.` : 'Length: as long as the items need, no padding.';
  if (budget.maxWords > 0) return `Length: between ${budget.minWords} and ${budget.maxWords} words.`;
  return `Length: at least ${budget.minWords} words.`;
}

/** Everything the model must follow for one prompt: role, task, depth, length, language, format. */
export function buildSystemPrompt(promptKey: PromptKey, settings: SummarySettings, material: SourceMaterial = 'meeting'): string {
  const prompt = PROMPTS[promptKey];
  const depth = promptKey === 'c_summary' ? 'deep' : settings.depth;
  return [
    MATERIAL[material].role,
    '',
    `Task: ${prompt.title}.`,
    prompt.instructions,
    '',
    DEPTH_RULES[depth],
    lengthRule(promptKey, settings),
    languageRule(settings.translateTo || undefined, material),
    HTML_FORMAT_RULE,
    ...(material === 'meeting' ? [CITATION_RULE] : []),
  ].join('\n');
}

function userMessage(transcriptText: string, promptKey: PromptKey, customPrompt: string | undefined, intro: string): string {
  const question = promptKey === 'custom' && customPrompt ? `\n\nQuestion: ${customPrompt.trim()}` : '';
  return `${intro}\n\n${transcriptText}${question}`;
}

/** The messages of a direct request: the whole transcript fits the model's context. */
export function buildSummaryMessages(input: {
  promptKey: PromptKey;
  transcriptText: string;
  settings: SummarySettings;
  customPrompt?: string;
  material?: SourceMaterial;
}): ChatMessage[] {
  const material = input.material ?? 'meeting';
  return [
    { role: 'system', content: buildSystemPrompt(input.promptKey, input.settings, material) },
    { role: 'user', content: userMessage(input.transcriptText, input.promptKey, input.customPrompt, MATERIAL[material].intro) },
  ];
}

/** Map step of a long meeting: notes of one part, keeping what the final answer will need. */
export function buildChunkMessages(input: {
  promptKey: PromptKey;
  chunkText: string;
  part: number;
  parts: number;
  noteWords: number;
  customPrompt?: string;
  material?: SourceMaterial;
}): ChatMessage[] {
  const material = input.material ?? 'meeting';
  const cites = material === 'meeting';
  const focus =
    input.promptKey === 'custom' && input.customPrompt
      ? `Keep everything relevant to this question: ${input.customPrompt.trim()}`
      : `The notes will be combined into: ${PROMPTS[input.promptKey].title}.`;
  return [
    {
      role: 'system',
      content: [
        `You are reading part ${input.part} of ${input.parts} of ${MATERIAL[material].partOf}.`,
        'Write concise notes of this part, in the order things were said, as plain-text bullet points ("- ").',
        'Keep every topic, decision, action item with its owner, open question, figure and name; attribute points to speakers.',
        focus,
        ...(cites
          ? ['Every line starts with its number in square brackets: end every note with the numbers of the lines it comes from, like [12] or [12, 15].']
          : []),
        `At most ${input.noteWords} words. Never invent anything. Write in the language of the transcript.`,
      ].join('\n'),
    },
    {
      role: 'user',
      content: `Transcript part ${input.part} of ${input.parts} (${cites ? '"[n] Speaker: text"' : '"Speaker: text"'}):\n\n${input.chunkText}`,
    },
  ];
}

/** Reduce step: the final answer written from the notes of every part. */
export function buildCombineMessages(input: {
  promptKey: PromptKey;
  notes: readonly string[];
  settings: SummarySettings;
  customPrompt?: string;
  material?: SourceMaterial;
}): ChatMessage[] {
  const material = input.material ?? 'meeting';
  const noun = MATERIAL[material].noun;
  const notes = input.notes.map((n, i) => `Part ${i + 1}:\n${n.trim()}`).join('\n\n');
  return [
    {
      role: 'system',
      content:
        `${buildSystemPrompt(input.promptKey, input.settings, material)}\nThe ${noun} was too long to read at once: you get notes of its consecutive parts. Write one coherent answer for the whole ${noun}, not one per part.` +
        (material === 'meeting' ? '\nThe notes end with the numbers of the transcript lines they come from: cite those numbers.' : ''),
    },
    {
      role: 'user',
      content: userMessage(notes, input.promptKey, input.customPrompt, `Notes of the ${input.notes.length} consecutive parts of the ${noun}, in order:`),
    },
  ];
}

/** Intermediate reduce step when even the notes do not fit: merge some notes into shorter ones. */
export function buildMergeNotesMessages(notes: readonly string[], noteWords: number): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `Merge these consecutive notes of a meeting into one set of plain-text bullet notes ("- "), in order, keeping decisions, action items with owners, open questions, figures and names. At most ${noteWords} words. Never invent anything.\n` +
        'Keep the line numbers in square brackets at the end of each note, like [12] or [12, 15].',
    },
    { role: 'user', content: notes.map((n, i) => `Notes ${i + 1}:\n${n.trim()}`).join('\n\n') },
  ];
}

export function buildTranslateMessages(html: string, languageCode: string): ChatMessage[] {
  const language = findLanguage(languageCode);
  const name = language ? language.name : languageCode;
  return [
    {
      role: 'system',
      content: [
        `Translate the HTML the user sends into ${name}.`,
        'Keep every HTML tag and the structure exactly as they are; translate only the text between tags.',
        "Keep people's names, product names and numbers unchanged. Answer with the translated HTML only, no code fences, no comments.",
        'Keep every placeholder such as [[m1]] exactly as it is, at the place in the sentence it belongs to.',
      ].join('\n'),
    },
    { role: 'user', content: html },
  ];
}

export function buildFixLineMessages(text: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        'You clean up one line of a live-caption transcript.',
        'Remove fillers (um, uh, you know), stutters and repeated words; fix capitalisation, punctuation and obvious recognition errors.',
        'Keep the meaning, the language and the speaker\'s wording otherwise; do not summarise, answer or add anything.',
        'Answer with the cleaned line only, as plain text on one line, without quotes.',
      ].join('\n'),
    },
    { role: 'user', content: text },
  ];
}
