import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { LlmProvider } from '../types.js';
import { ModelDownloadTracker } from './download-tracker.js';
import { availableMemoryBytes } from './memory.js';
import type { LocalWorkerData } from './protocol.js';
import { LocalModelProvider, localModelName } from './provider.js';

export interface LocalModelHostOptions {
  /** LOCAL_MODEL: a GGUF path that pins the model (Settings cannot switch it). */
  pinned?: string;
  /** LOCAL_MODEL_DIR: where downloaded models live and the chosen one is remembered. */
  dir: string;
  parallel: number;
  threads: number;
  gpu: LocalWorkerData['gpu'];
  maxContextTokens: number;
  /** LOCAL_MODEL_MAX_RAM in bytes; 0 = what the machine has available. */
  maxRamBytes: number;
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** What Settings → AI shows of the local model. */
export interface LocalModelStatus {
  state: 'none' | 'loading' | 'ready' | 'failed';
  /** The GGUF file's name. */
  file?: string;
  /** The model name summaries record (`local:<file>`). */
  model?: string;
  /** Why it could not be loaded (memory, invalid file). */
  error?: string;
  contextTokens?: number;
  pinned: boolean;
  queued: number;
  running: number;
}

/** The GGUF files in a models folder, by name, with their sizes. */
export function installedModels(dir: string): { file: string; bytes: number }[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return []; // no folder yet: nothing downloaded
  }
  return files
    .filter((f) => f.toLowerCase().endsWith('.gguf'))
    .sort()
    .map((file) => ({ file, bytes: statSync(join(dir, file)).size }));
}

/** The file in LOCAL_MODEL_DIR that remembers which model an administrator chose. */
const SELECTED_FILE = 'selected.json';

/**
 * The installed local model, loaded once and replaced without a restart: the engine asks it for a
 * provider; a switch loads the new model before the old one (drained first) is freed.
 */
export class LocalModelHost {
  private provider: LocalModelProvider | undefined;
  private loading: Promise<LocalModelProvider | undefined> | undefined;
  private path: string | undefined;
  private error: string | undefined;

  /** Settings → AI's download into LOCAL_MODEL_DIR. */
  readonly downloads: ModelDownloadTracker;

  constructor(readonly options: LocalModelHostOptions) {
    this.downloads = new ModelDownloadTracker(options.dir);
  }

  /** The GGUF files in LOCAL_MODEL_DIR. */
  installedModels(): { file: string; bytes: number }[] {
    return installedModels(resolve(this.options.dir));
  }

  /** The loaded (or loading) model's path. */
  get modelPath(): string | undefined {
    return this.path;
  }

  get pinned(): boolean {
    return Boolean(this.options.pinned);
  }

  /**
   * Finds the model to run (LOCAL_MODEL, else the one chosen in Settings, else the first GGUF in
   * LOCAL_MODEL_DIR) and starts loading it; generations wait for it. Read synchronously, once at start,
   * so the engine knows at once whether a model is installed.
   */
  start(): Promise<LocalModelProvider | undefined> {
    const path = this.options.pinned ?? this.chosenModel();
    return path ? this.load(path) : Promise.resolve(undefined);
  }

  /** A model is installed (loaded or loading): the server has an LLM. */
  get installed(): boolean {
    return this.provider !== undefined || this.loading !== undefined;
  }

  /** The loaded model's context, when one is loaded. */
  get contextTokens(): number | undefined {
    return this.provider?.contextTokens;
  }

  /** The model to answer with: waits while one loads; undefined when none is installed or it failed. */
  async current(): Promise<LlmProvider | undefined> {
    if (this.loading) return (await this.loading) ?? this.provider;
    return this.provider;
  }

  status(): LocalModelStatus {
    const file = this.path && basename(this.path);
    const state = this.loading ? 'loading' : this.provider ? 'ready' : this.error ? 'failed' : 'none';
    return {
      state,
      file,
      model: this.path && localModelName(this.path),
      error: this.error,
      contextTokens: this.provider?.contextTokens,
      pinned: this.pinned,
      ...(this.provider?.load ?? { queued: 0, running: 0 }),
    };
  }

  /** Loads `path` and makes it the model in use; the previous model finishes its generations, then is freed. */
  async activate(path: string): Promise<void> {
    await this.load(path);
    if (this.error) throw new Error(this.error);
    if (!this.options.pinned) await this.remember(path);
  }

  private load(path: string): Promise<LocalModelProvider | undefined> {
    const previous = this.loading ?? Promise.resolve(this.provider);
    const loading = (async () => {
      await previous.catch(() => undefined);
      try {
        const next = await LocalModelProvider.load({
          modelPath: path,
          parallel: this.options.parallel,
          threads: this.options.threads,
          gpu: this.options.gpu,
          maxContextTokens: this.options.maxContextTokens,
          memoryLimitBytes: availableMemoryBytes(this.options.maxRamBytes || undefined),
        });
        const old = this.provider;
        this.provider = next;
        this.path = path;
        this.error = undefined;
        this.options.log?.info({ model: next.model, contextTokens: next.contextTokens, ...next.details }, 'local model loaded');
        void old?.close({ drain: true });
        return next;
      } catch (error) {
        this.error = error instanceof Error ? error.message : String(error);
        this.options.log?.error({ path, err: error }, 'local model not loaded');
        if (!this.provider) this.path = path;
        return this.provider;
      }
    })();
    this.loading = loading;
    void loading.finally(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    return loading;
  }

  private chosenModel(): string | undefined {
    const dir = resolve(this.options.dir);
    let chosen: unknown;
    try {
      chosen = (JSON.parse(readFileSync(join(dir, SELECTED_FILE), 'utf8')) as { file?: unknown }).file;
    } catch {
      chosen = undefined; // nothing chosen yet
    }
    const models = installedModels(dir).map((m) => m.file);
    const file = typeof chosen === 'string' && models.includes(chosen) ? chosen : models[0];
    return file && join(dir, file);
  }

  private async remember(path: string): Promise<void> {
    const dir = resolve(this.options.dir);
    await mkdir(dir, { recursive: true });
    const temporary = join(dir, `${SELECTED_FILE}.tmp`);
    await writeFile(temporary, JSON.stringify({ file: basename(path) }));
    await rename(temporary, join(dir, SELECTED_FILE));
  }

  /** Frees the model's memory and stops its thread (server shutdown). */
  async close(): Promise<void> {
    const provider = await this.loading?.catch(() => undefined) ?? this.provider;
    this.provider = undefined;
    await provider?.close();
  }
}
