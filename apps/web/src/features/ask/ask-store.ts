import type { Unsubscribable } from '@trpc/server/observable';
import { useSyncExternalStore } from 'react';
import { MAX_ASK_HISTORY, MAX_ASK_HISTORY_ANSWER_LENGTH, type AskCitation, type AskInput, type AskStreamEvent } from '@mbox/shared/ask';
import { classifyError, handleApiError, isDailyLimit } from '../../lib/errors';

/** One question and its answer as the chat shows it. */
export interface ChatTurn {
  id: number;
  question: string;
  /** The answer's text so far, with its `[n]` markers. */
  answer: string;
  citations: AskCitation[];
  status: 'streaming' | 'done' | 'failed';
  /** Why a failed turn has no (whole) answer: the app's error text, or the server's for an AI failure. */
  failure?: { message: string; dailyLimit: boolean };
}

/** What starts a question: the tRPC client's ask.stream subscription. */
export type AskSubscribe = (
  input: AskInput,
  handlers: {
    onData: (event: AskStreamEvent) => void;
    onError: (error: unknown) => void;
    onConnectionStateChange: (state: { state: string; error: unknown }) => void;
    onComplete: () => void;
  },
) => Unsubscribable;

interface Chat {
  turns: ChatTurn[];
  subscription: Unsubscribable | null;
}

// Chats live outside the components: per meeting, for as long as the page is open, and a phone's
// tab switch (which unmounts the panel) neither loses the chat nor cancels an answer being written.
const chats = new Map<string, Chat>();
const listeners = new Set<() => void>();
const EMPTY: readonly ChatTurn[] = [];
let nextId = 1;

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function update(meetingId: string, id: number, change: (turn: ChatTurn) => ChatTurn): void {
  const chat = chats.get(meetingId);
  if (!chat) return;
  chat.turns = chat.turns.map((turn) => (turn.id === id ? change(turn) : turn));
  notify();
}

/** The meeting's chat, oldest turn first. */
export function useChat(meetingId: string): readonly ChatTurn[] {
  return useSyncExternalStore(subscribe, () => chats.get(meetingId)?.turns ?? EMPTY);
}

export function isAnswering(turns: readonly ChatTurn[]): boolean {
  return turns.some((t) => t.status === 'streaming');
}

/** The answered turns a follow-up sends back, newest last. */
function historyOf(turns: readonly ChatTurn[]): NonNullable<AskInput['history']> {
  return turns
    .filter((t) => t.status === 'done')
    .slice(-MAX_ASK_HISTORY)
    .map((t) => ({ question: t.question, answer: t.answer.slice(0, MAX_ASK_HISTORY_ANSWER_LENGTH) }));
}

/**
 * Asks `question` about the meeting: a new turn whose answer and citations fill in as the stream
 * arrives. Refusals (the daily limit, bad input) go through the app's one error mapping. `onEnd`
 * runs once the turn is answered or failed.
 */
export function askQuestion(subscribeAsk: AskSubscribe, meetingId: string, question: string, onEnd?: () => void): void {
  const chat = chats.get(meetingId) ?? { turns: [], subscription: null };
  chats.set(meetingId, chat);
  if (isAnswering(chat.turns)) return;
  const history = historyOf(chat.turns);
  const id = nextId++;
  chat.turns = [...chat.turns, { id, question, answer: '', citations: [], status: 'streaming' }];
  notify();

  let ended = false;
  const finish = (change: (turn: ChatTurn) => ChatTurn) => {
    if (ended) return;
    ended = true;
    chat.subscription?.unsubscribe();
    chat.subscription = null;
    update(meetingId, id, change);
    onEnd?.();
  };
  const refused = (error: unknown) => {
    // The stream also completes after its done event: only an unanswered question is a failure.
    if (ended) return;
    handleApiError(error);
    const outcome = classifyError(error);
    const message = outcome.kind === 'toast' ? outcome.message : '';
    finish((turn) => ({ ...turn, status: 'failed', failure: { message, dailyLimit: isDailyLimit(error) } }));
  };
  chat.subscription = subscribeAsk(
    { meetingId, question, history },
    {
      onData: (event) => {
        if (event.type === 'citations') {
          update(meetingId, id, (turn) => ({ ...turn, citations: [...turn.citations, ...event.citations] }));
        } else if (event.type === 'delta') {
          update(meetingId, id, (turn) => ({ ...turn, answer: turn.answer + event.text }));
        } else if (event.type === 'done') {
          finish((turn) => ({ ...turn, answer: event.answer, citations: event.citations, status: 'done' }));
        } else {
          finish((turn) => ({ ...turn, status: 'failed', failure: { message: event.message, dailyLimit: false } }));
        }
      },
      onError: refused,
      // The SSE link would reconnect after a 5xx and ask again: a refused question ends here instead.
      onConnectionStateChange: (state) => {
        if (state.state === 'connecting' && state.error) refused(state.error);
      },
      // Closed without an answer (e.g. the server is shutting down).
      onComplete: () => refused(new Error('The answer stream closed early')),
    },
  );
}

