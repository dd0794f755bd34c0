import { EventEmitter, on } from 'node:events';

/** Live events fanned out to subscribers (in-process; one server instance). */
export interface EventMap {
  /** Lines of a meeting were added or changed. */
  'meeting.lines': { userId: string; meetingId: string; messageIds: string[] };
  /** A meeting was created, renamed, finished or deleted. */
  'meeting.changed': { userId: string; meetingId: string; kind: 'created' | 'updated' | 'finished' | 'deleted' };
}

export class EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  emit<K extends keyof EventMap>(name: K, payload: EventMap[K]): void {
    this.emitter.emit(name, payload);
  }

  /** Async iterator of events, ended by the signal (a tRPC subscription's abort signal). */
  async *subscribe<K extends keyof EventMap>(name: K, signal?: AbortSignal): AsyncGenerator<EventMap[K]> {
    for await (const [payload] of on(this.emitter, name, { signal })) {
      yield payload as EventMap[K];
    }
  }
}
