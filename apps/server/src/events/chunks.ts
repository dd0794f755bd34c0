/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more, so an event's JSON travels in parts:
 * `<message id>|<part>|<total>|<text>`, each under the limit, put back together by every listener.
 */

/** Largest NOTIFY payload PostgreSQL accepts (it must be shorter than 8000 bytes). */
export const NOTIFY_PAYLOAD_LIMIT = 7999;
/** Room left for the header; message ids are short (instance id + counter). */
const HEADER_ROOM = 64;

/** Splits `text` into NOTIFY payloads of at most `limit` bytes each, never inside a UTF-8 character. */
export function toChunks(messageId: string, text: string, limit = NOTIFY_PAYLOAD_LIMIT): string[] {
  if (messageId.includes('|') || messageId.length > 40) throw new Error(`message id '${messageId}' cannot head a chunk`);
  const bytes = Buffer.from(text, 'utf8');
  const room = limit - HEADER_ROOM;
  const slices: string[] = [];
  let start = 0;
  while (start < bytes.length || slices.length === 0) {
    let end = Math.min(start + room, bytes.length);
    // Back off to a character boundary: 0b10xxxxxx bytes continue the character before them.
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end -= 1;
    if (end <= start && bytes.length > 0) throw new Error(`a chunk limit of ${limit} bytes leaves no room for text`);
    slices.push(bytes.toString('utf8', start, end));
    start = end;
  }
  return slices.map((slice, index) => `${messageId}|${index + 1}|${slices.length}|${slice}`);
}

interface PartialMessage {
  parts: (string | undefined)[];
  received: number;
  firstSeenAt: number;
}

/**
 * Puts chunked messages back together. Parts of different messages may interleave; a message whose
 * parts stop coming (its sender's connection broke, or this listener reconnected mid-message) is
 * dropped by `sweep` once it is older than `timeoutMs`.
 */
export class ChunkAssembler {
  private readonly pending = new Map<string, PartialMessage>();

  constructor(private readonly timeoutMs: number) {}

  /** The whole message once its last part arrived; null while parts are missing or when `payload` is no chunk. */
  accept(payload: string, now: number): string | null {
    const match = /^([^|]{1,40})\|(\d{1,6})\|(\d{1,6})\|/.exec(payload);
    if (!match) return null;
    const [header, messageId, partText, totalText] = match as unknown as [string, string, string, string];
    const part = Number(partText);
    const total = Number(totalText);
    if (part < 1 || part > total) return null;
    const text = payload.slice(header.length);
    if (total === 1) return text;
    let partial = this.pending.get(messageId);
    if (!partial) {
      partial = { parts: new Array<string | undefined>(total), received: 0, firstSeenAt: now };
      this.pending.set(messageId, partial);
    }
    if (partial.parts.length !== total || partial.parts[part - 1] !== undefined) return null;
    partial.parts[part - 1] = text;
    partial.received += 1;
    if (partial.received < total) return null;
    this.pending.delete(messageId);
    return partial.parts.join('');
  }

  /** Drops messages still incomplete `timeoutMs` after their first part; returns how many. */
  sweep(now: number): number {
    let dropped = 0;
    for (const [messageId, partial] of this.pending) {
      if (now - partial.firstSeenAt >= this.timeoutMs) {
        this.pending.delete(messageId);
        dropped += 1;
      }
    }
    return dropped;
  }

  get incomplete(): number {
    return this.pending.size;
  }
}
