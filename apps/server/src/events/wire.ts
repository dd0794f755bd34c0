import type { BusEvent } from '../events.js';

/**
 * Events cross process boundaries as JSON: a payload must be made of JSON values (no Date, Map or
 * undefined inside arrays), or subscribers on other instances would see something else than local ones.
 */
export function encodeEvent(event: BusEvent): string {
  return JSON.stringify(event);
}

/** The event in `text`, or null when it is not one (the channel is shared with whoever can reach it). */
export function decodeEvent(text: string): BusEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { name, payload } = value as { name?: unknown; payload?: unknown };
  if (typeof name !== 'string' || typeof payload !== 'object' || payload === null) return null;
  return value as BusEvent;
}
