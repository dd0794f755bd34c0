import type { Unsubscribable } from '@trpc/server/observable';
import { useSyncExternalStore } from 'react';
import { MAX_ASK_HISTORY, MAX_ASK_HISTORY_ANSWER_LENGTH, type AskAllCitation, type AskAllScope, type AskCitation, type AskTurn } from '@mbox/shared/ask';
import type { AiEngineKind } from '@mbox/shared/generation';
import { classifyError, handleApiError, isDailyLimit } from '../../lib/errors';

/** One question and its answer as the chat shows it. */
export interface ChatTurn<C extends AskCitation = AskCitation> {
  id: number;
  question: string;
  /** The answer's text so far, with its `[n]` markers. */
  answer: string;
  citations: C[];
  status: 'streaming' | 'done' | 'failed';
  /** Which engine answered (known once the answer is complete). */
  engine?: AiEngineKind;
  /** What a question across meetings searched (its period, meetings, encrypted ones left out). */
  scope?: AskAllScope;
  /** Why a failed turn has no (whole) answer: the app's error text, or the server's for an AI failure. */
  failure?: { message: string; dailyLimit: boolean };
}

/** The events of ask.stream and ask.allStream, by the citation type they carry. */
export type ChatEvent<C extends AskCitation> =
  | { type: 'scope'; scope: AskAllScope }
  | { type: 'citations'; citations: C[] }
  | { type: 'delta'; text: string }
  | { type: 'done'; answer: string; citations: C[]; engine: AiEngineKind; scope?: AskAllScope }
  | { type: 'error'; message: string };

/** What starts a question: the tRPC client's subscription, given the answered turns before it. */
export type ChatSubscribe<C extends AskCitation> = (
  history: AskTurn[],
  handlers: {
    onData: (event: ChatEvent<C>) => void;
    onError: (error: unknown) => void;
    onConnectionStateChange: (state: { state: string; error: unknown }) => void;
    onComplete: () => void;
  },
) => Unsubscribable;

interface Chat<C extends AskCitation> {
  turns: ChatTurn<C>[];
  subscription: Unsubscribable | null;
}

export function isAnswering(turns: readonly ChatTurn<AskCitation>[]): boolean {
  return turns.some((t) => t.status === 'streaming');
}

/** The answered turns a follow-up sends back, newest last. */
function historyOf(turns: readonly ChatTurn<AskCitation>[]): AskTurn[] {
  return turns
    .filter((t) => t.status === 'done')
    .slice(-MAX_ASK_HISTORY)
    .map((t) => ({ question: t.question, answer: t.answer.slice(0, MAX_ASK_HISTORY_ANSWER_LENGTH) }));
}

let nextId = 1;

/**
 * Chats kept outside the components, by key (a meeting, or all meetings), for as long as the page is
 * open: a phone's tab switch (which unmounts a panel) neither loses the chat nor cancels an answer
 * being written.
 */
function createChatStore<C extends AskCitation>() {
  const chats = new Map<string, Chat<C>>();
  const listeners = new Set<() => void>();
  const empty: readonly ChatTurn<C>[] = [];
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const update = (key: string, id: number, change: (turn: ChatTurn<C>) => ChatTurn<C>) => {
    const chat = chats.get(key);
    if (!chat) return;
    chat.turns = chat.turns.map((turn) => (turn.id === id ? change(turn) : turn));
    notify();
  };

  /** The chat's turns, oldest first. */
  function useChat(key: string): readonly ChatTurn<C>[] {
    return useSyncExternalStore(subscribe, () => chats.get(key)?.turns ?? empty);
  }

  /**
   * Asks `question` in the chat: a new turn whose answer and citations fill in as the stream arrives.
   * Refusals (the daily limit, bad input) go through the app's one error mapping. `onEnd` runs once
   * the turn is answered or failed.
   */
  function askQuestion(subscribeAsk: ChatSubscribe<C>, key: string, question: string, onEnd?: () => void): void {
    const chat = chats.get(key) ?? { turns: [], subscription: null };
    chats.set(key, chat);
    if (isAnswering(chat.turns)) return;
    const history = historyOf(chat.turns);
    const id = nextId++;
    chat.turns = [...chat.turns, { id, question, answer: '', citations: [], status: 'streaming' }];
    notify();

    let ended = false;
    const finish = (change: (turn: ChatTurn<C>) => ChatTurn<C>) => {
      if (ended) return;
      ended = true;
      chat.subscription?.unsubscribe();
      chat.subscription = null;
      update(key, id, change);
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
    chat.subscription = subscribeAsk(history, {
      onData: (event) => {
        if (event.type === 'scope') {
          update(key, id, (turn) => ({ ...turn, scope: event.scope }));
        } else if (event.type === 'citations') {
          update(key, id, (turn) => ({ ...turn, citations: [...turn.citations, ...event.citations] }));
        } else if (event.type === 'delta') {
          update(key, id, (turn) => ({ ...turn, answer: turn.answer + event.text }));
        } else if (event.type === 'done') {
          const { answer, citations, engine, scope } = event;
          finish((turn) => ({ ...turn, answer, citations, engine, scope: scope ?? turn.scope, status: 'done' }));
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
    });
  }

  return { useChat, askQuestion };
}

/** Chats about one meeting, by meeting id. */
export const meetingChats = createChatStore<AskCitation>();
/** The chat across all meetings: one per page load. */
export const allMeetingsChat = createChatStore<AskAllCitation>();
/** The key of the one chat across all meetings. */
export const ALL_MEETINGS = 'all';
