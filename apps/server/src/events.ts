import type { Message } from '@mbox/shared';

/**
 * Live events fanned out to subscribers. Payloads are plain JSON values (no Date, no undefined): on a
 * deployment of several instances they cross processes through PostgreSQL NOTIFY or Redis.
 */
export interface EventMap {
  /**
   * Lines of a meeting were added or changed. `lines` are the rows as stored, in their API form: the
   * text of an encrypted line is its ciphertext (never plaintext in an event), opened by each
   * subscriber. A change too large to travel whole (see MAX_EVENT_LINES_CHARS) names its lines instead.
   */
  'meeting.lines':
    | { userId: string; meetingId: string; lines: Message[] }
    | { userId: string; meetingId: string; messageIds: string[] };
  /** A meeting was created, renamed, finished or deleted. */
  'meeting.changed': { userId: string; meetingId: string; kind: 'created' | 'updated' | 'finished' | 'deleted' };
  /**
   * Credentials or the user fields they carry changed: every instance drops what it cached for them
   * (modules/auth/credential-cache.ts). Only `userId`: everything of that user.
   */
  'auth.invalidate': { userId: string; sessionId?: string; extensionTokenId?: string; personalTokenId?: string };
}

/** Largest total of line texts an event carries; above it the event names the lines and subscribers read them. */
export const MAX_EVENT_LINES_CHARS = 64_000;

export type EventName = keyof EventMap;
export interface BusEvent<K extends EventName = EventName> {
  name: K;
  payload: EventMap[K];
}

/**
 * Carries events between the server instances sharing one database: every published event reaches the
 * `deliver` callback of every instance, this one included.
 */
export interface EventTransport {
  start(deliver: (event: BusEvent) => void): Promise<void>;
  publish(event: BusEvent): void;
  close(): Promise<void>;
}

/** One instance on its own: events stay in the process. */
export class LocalTransport implements EventTransport {
  private deliver: ((event: BusEvent) => void) | null = null;

  async start(deliver: (event: BusEvent) => void): Promise<void> {
    this.deliver = deliver;
  }

  publish(event: BusEvent): void {
    this.deliver?.(event);
  }

  async close(): Promise<void> {
    this.deliver = null;
  }
}

/** Which subscribers an event is for: live lines go to the meeting's, meeting changes and credentials to the user's. */
const routingKeys: { [K in EventName]: (payload: EventMap[K]) => string } = {
  'meeting.lines': (payload) => payload.meetingId,
  'meeting.changed': (payload) => payload.userId,
  'auth.invalidate': (payload) => payload.userId,
};

type Listener<K extends EventName> = (payload: EventMap[K]) => void;

/**
 * Publishes through the transport and hands each received event only to the listeners of its key
 * (a meeting's id, a user's id) or of every key: a line of one meeting wakes that meeting's
 * subscribers, not all of them.
 */
export class EventBus {
  private readonly listeners = new Map<string, Set<Listener<EventName>>>();

  constructor(private readonly transport: EventTransport = new LocalTransport()) {}

  /** Starts receiving events (from every instance when the transport spans several). */
  start(): Promise<void> {
    return this.transport.start((event) => this.dispatch(event));
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  emit<K extends EventName>(name: K, payload: EventMap[K]): void {
    this.transport.publish({ name, payload } as BusEvent);
  }

  /** Calls `listener` with every event `name` of `key` (every key when null) until the returned function is called. */
  listen<K extends EventName>(name: K, key: string | null, listener: Listener<K>): () => void {
    const slot = `${name}\u0000${key ?? ''}`;
    let set = this.listeners.get(slot);
    if (!set) this.listeners.set(slot, (set = new Set()));
    set.add(listener as Listener<EventName>);
    return () => {
      set.delete(listener as Listener<EventName>);
      if (set.size === 0 && this.listeners.get(slot) === set) this.listeners.delete(slot);
    };
  }

  private dispatch(event: BusEvent): void {
    const key = (routingKeys[event.name] as (payload: unknown) => string)(event.payload);
    for (const slot of [`${event.name}\u0000${key}`, `${event.name}\u0000`]) {
      const set = this.listeners.get(slot);
      if (!set) continue;
      for (const listener of set) {
        try {
          listener(event.payload);
        } catch {
          // A listener's failure must not keep the event from the others; listeners handle their own errors.
        }
      }
    }
  }
}
