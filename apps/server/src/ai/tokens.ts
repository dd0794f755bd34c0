import type * as TiktokenLite from 'js-tiktoken/lite';
import type { Tiktoken } from 'js-tiktoken/lite';
import type O200kBase from 'js-tiktoken/ranks/o200k_base';
import { lazyRequire } from '../lazy-require.js';
import type { ChatMessage } from './types.js';

// The ranks ship inside the package, so counting works offline. o200k_base is the encoding of
// current OpenAI models; for other models it is a close enough estimate to size chunks. They are a
// few megabytes, loaded with the first count rather than at start-up.
const tiktoken = lazyRequire<typeof TiktokenLite>('js-tiktoken/lite');
const o200kBase = lazyRequire<typeof O200kBase>('js-tiktoken/ranks/o200k_base');
let encoder: Tiktoken | undefined;

function getEncoder(): Tiktoken {
  encoder ??= new (tiktoken().Tiktoken)(o200kBase());
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
