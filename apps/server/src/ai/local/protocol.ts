import type { ChatMessage, TokenUsage } from '../types.js';

/** What the local model's worker thread is started with. */
export interface LocalWorkerData {
  modelPath: string;
  /** Generations running at once: one context sequence each. */
  parallel: number;
  /** CPU threads llama.cpp may use. */
  threads: number;
  gpu: 'auto' | 'cpu' | 'cuda' | 'vulkan' | 'metal';
  /** Largest context (tokens) a sequence gets; the model's own training context caps it too. */
  maxContextTokens: number;
  /** Bytes the model and its context may take; the loading is refused above it. */
  memoryLimitBytes: number;
}

export type ToWorker =
  | { type: 'generate'; id: number; messages: ChatMessage[]; maxTokens: number; temperature: number }
  | { type: 'abort'; id: number }
  | { type: 'dispose' };

export type FromWorker =
  | { type: 'ready'; contextTokens: number; trainContextTokens: number; gpu: string | false; chatWrapper: string }
  | { type: 'load-failed'; reason: 'memory' | 'invalid'; message: string }
  | { type: 'token'; id: number; text: string }
  | { type: 'done'; id: number; text: string; usage: TokenUsage; aborted: boolean }
  | { type: 'failed'; id: number; message: string }
  | { type: 'disposed' };
