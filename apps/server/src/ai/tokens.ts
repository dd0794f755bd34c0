import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { ChatMessage } from './types.js';

// The ranks ship inside the package, so counting works offline. o200k_base is the encoding of
// current OpenAI models; for other models it is a close enough estimate to size chunks.
let encoder: Tiktoken | undefined;

function getEncoder(): Tiktoken {
  encoder ??= new Tiktoken(o200kBase);
  return encoder;
}

export function countTokens(text: string): number {
  if (!text) return 0;
  return getEncoder().encode(text).length;
}

/** Tokens of a chat request, with the few tokens of per-message framing the chat format adds. */
export function countMessageTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + countTokens(m.content) + 4, 3);
}
