import { basename, join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { repoRoot } from '../../db/paths.js';
import { LlmRequestError } from '../errors.js';
import { countTokens } from '../tokens.js';
import type { LlmProvider, LlmRequest, LlmResult, TokenUsage } from '../types.js';
import type { FromWorker, LocalWorkerData, ToWorker } from './protocol.js';

/** The model name summaries record: `local:` and the GGUF's file name without `.gguf`. */
export function localModelName(modelPath: string): string {
  return `local:${basename(modelPath).replace(/\.gguf$/i, '')}`;
}

/** The local model could not be loaded: too little memory, or not a GGUF llama.cpp can run. */
export class LocalModelLoadError extends Error {
  override readonly name = 'LocalModelLoadError';
  constructor(
    readonly reason: 'memory' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

interface Job {
  id: number;
  request: LlmRequest;
  onToken?: (delta: string) => void;
  resolve: (result: LlmResult) => void;
  reject: (error: unknown) => void;
  detach: () => void;
}

/**
 * Starts the worker thread: the bundled file in production. From the sources, the thread registers
 * tsx itself before importing the TypeScript (Node 20 does not hand the process's import hooks to a
 * worker thread).
 */
function startWorker(workerData: LocalWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(pathToFileURL(join(repoRoot, 'apps', 'server', 'dist', 'local-model-worker.js')), { workerData });
  }
  const tsx = JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href.replace(/\/dist\/.*$/, '/dist/esm/api/index.mjs'));
  const source = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then((api) => api.register()).then(() => import(${source}))`, { eval: true, workerData });
}

/**
 * Waits for the thread to end by itself once it freed llama.cpp; terminated only if it hangs, since
 * terminating a thread inside llama.cpp can abort the whole process.
 */
async function ended(worker: Worker, graceMs = 10_000): Promise<void> {
  if (worker.threadId === -1) return;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const timer = setTimeout(() => void worker.terminate(), graceMs);
  await exited;
  clearTimeout(timer);
}

function cancelled(): LlmRequestError {
  return new LlmRequestError('The LLM request was cancelled.', undefined, 'rejected', 1);
}

/**
 * A GGUF model run by llama.cpp (node-llama-cpp) in a worker thread, behind the same interface as
 * the OpenAI-compatible provider. Generations queue: at most `parallel` run at once, the rest wait
 * in order; a generation whose signal aborts (its client left) leaves the queue or stops where it is.
 */
export class LocalModelProvider implements LlmProvider {
  readonly name = 'local';
  private readonly queue: Job[] = [];
  private readonly running = new Map<number, Job>();
  private nextId = 1;
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly worker: Worker,
    readonly modelPath: string,
    private readonly parallel: number,
    /** Tokens of the context each generation gets (what the model was trained with, within LOCAL_MODEL's cap). */
    readonly contextTokens: number,
    readonly details: { trainContextTokens: number; gpu: string | false; chatWrapper: string },
  ) {
    worker.on('message', (message: FromWorker) => this.receive(message));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`The local model's thread exited (code ${code}).`)));
  }

  /** Loads the model in a new worker thread; rejects with LocalModelLoadError when it cannot. */
  static async load(data: LocalWorkerData): Promise<LocalModelProvider> {
    const worker = startWorker(data);
    const listeners: { message?: (m: FromWorker) => void; error?: (e: Error) => void; exit?: (code: number) => void } = {};
    const ready = await new Promise<Extract<FromWorker, { type: 'ready' }>>((resolve, reject) => {
      listeners.message = (message) => {
        if (message.type === 'ready') resolve(message);
        else if (message.type === 'load-failed') reject(new LocalModelLoadError(message.reason, message.message));
      };
      listeners.error = (error) => reject(new LocalModelLoadError('invalid', `The local model could not be loaded: ${error.message}`));
      listeners.exit = (code) => reject(new LocalModelLoadError('invalid', `The local model's thread exited while loading (code ${code}).`));
      worker.on('message', listeners.message).on('error', listeners.error).on('exit', listeners.exit);
    })
      .catch(async (error: unknown) => {
        await ended(worker);
        throw error;
      })
      .finally(() => {
        // Only these listeners: the Worker's own (which wire 'message' to its port) must stay.
        worker.off('message', listeners.message!).off('error', listeners.error!).off('exit', listeners.exit!);
      });
    const { contextTokens, trainContextTokens, gpu, chatWrapper } = ready;
    return new LocalModelProvider(worker, data.modelPath, data.parallel, contextTokens, { trainContextTokens, gpu, chatWrapper });
  }

  get model(): string {
    return localModelName(this.modelPath);
  }

  modelFor(): string {
    return this.model;
  }

  /** Generations waiting for a free slot, and running. */
  get load(): { queued: number; running: number } {
    return { queued: this.queue.length, running: this.running.size };
  }

  countTokens(text: string): number {
    return countTokens(text);
  }

  generate(request: LlmRequest): Promise<LlmResult> {
    return this.enqueue(request);
  }

  stream(request: LlmRequest, onToken: (delta: string) => void): Promise<LlmResult> {
    return this.enqueue(request, onToken);
  }

  private enqueue(request: LlmRequest, onToken?: (delta: string) => void): Promise<LlmResult> {
    if (this.failure || this.closing) return Promise.reject(this.unavailable());
    if (request.signal?.aborted) return Promise.reject(cancelled());
    return new Promise<LlmResult>((resolve, reject) => {
      const id = this.nextId++;
      const onAbort = () => {
        const waiting = this.queue.findIndex((j) => j.id === id);
        if (waiting >= 0) {
          this.queue.splice(waiting, 1);
          reject(cancelled());
        } else if (this.running.has(id)) {
          this.post({ type: 'abort', id });
        }
      };
      request.signal?.addEventListener('abort', onAbort, { once: true });
      const job: Job = {
        id,
        request,
        onToken,
        resolve,
        reject,
        detach: () => request.signal?.removeEventListener('abort', onAbort),
      };
      this.queue.push(job);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.running.size < this.parallel && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running.set(job.id, job);
      const { messages, maxTokens, temperature } = job.request;
      this.post({
        type: 'generate',
        id: job.id,
        messages,
        maxTokens: Math.max(1, maxTokens ?? Math.floor(this.contextTokens / 4)),
        temperature: temperature ?? 0.2,
      });
    }
  }

  private receive(message: FromWorker): void {
    if (message.type === 'disposed' || message.type === 'ready' || message.type === 'load-failed') return;
    const job = this.running.get(message.id);
    if (!job) return;
    if (message.type === 'token') {
      if (!job.request.signal?.aborted) job.onToken?.(message.text);
      return;
    }
    this.running.delete(job.id);
    job.detach();
    if (message.type === 'failed') {
      job.reject(new LlmRequestError(`The local model failed: ${message.message}`, undefined, 'unavailable', 1));
    } else if (message.aborted || job.request.signal?.aborted) {
      job.reject(cancelled());
    } else {
      job.resolve({ text: message.text, model: this.model, usage: message.usage satisfies TokenUsage });
    }
    this.dispatch();
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  private unavailable(): LlmRequestError {
    return new LlmRequestError(
      this.failure ? `The local model stopped: ${this.failure.message}` : 'The local model is being replaced; try again.',
      undefined,
      'unavailable',
      1,
    );
  }

  private fail(error: Error): void {
    if (this.closing) return;
    this.failure = error;
    for (const job of [...this.queue, ...this.running.values()]) {
      job.detach();
      job.reject(this.unavailable());
    }
    this.queue.length = 0;
    this.running.clear();
  }

  /**
   * Lets queued and running generations finish (`drain`) or stops them, then frees the model's memory.
   * A switch to another model drains the old one, so no answer is cut short by it.
   */
  close(options: { drain?: boolean } = {}): Promise<void> {
    this.closing ??= (async () => {
      if (options.drain) {
        while (this.queue.length > 0 || this.running.size > 0) await new Promise((r) => setTimeout(r, 50));
      } else {
        for (const job of this.queue) {
          job.detach();
          job.reject(cancelled());
        }
        this.queue.length = 0;
      }
      this.post({ type: 'dispose' });
      await ended(this.worker);
      for (const job of this.running.values()) {
        job.detach();
        job.reject(cancelled());
      }
      this.running.clear();
    })();
    return this.closing;
  }
}
