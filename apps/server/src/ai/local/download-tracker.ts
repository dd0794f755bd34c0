import type { LocalModelDownload } from '@mbox/shared';
import { downloadModel } from './download.js';

/**
 * The one model download Settings → AI runs at a time, and what it has done: polled for the progress
 * bar, cancelled from there. The file stays a `.part` until complete, so a restart resumes it.
 */
export class ModelDownloadTracker {
  private current: (LocalModelDownload & { cancel: AbortController }) | undefined;

  constructor(private readonly dir: string) {}

  get state(): LocalModelDownload | null {
    if (!this.current) return null;
    const { cancel: _cancel, ...state } = this.current;
    return state;
  }

  get running(): boolean {
    return this.current?.state === 'running';
  }

  /** Starts a download; `onDone` receives the saved file. Refuses while another runs. */
  start(request: { url: string; file: string; sha256: string | null }, onDone: (path: string) => Promise<void>): void {
    if (this.running) throw new Error('A model is already downloading: cancel it or wait for it.');
    const cancel = new AbortController();
    const entry = { file: request.file, url: request.url, state: 'running' as LocalModelDownload['state'], received: 0, total: null as number | null, message: null as string | null, cancel };
    this.current = entry;
    void downloadModel({
      url: request.url,
      dir: this.dir,
      file: request.file,
      sha256: request.sha256,
      signal: cancel.signal,
      onProgress: ({ received, total }) => {
        entry.received = received;
        entry.total = total ?? null;
      },
    })
      .then(async (result) => {
        entry.state = 'done';
        await onDone(result.path);
      })
      .catch((error: unknown) => {
        entry.state = cancel.signal.aborted ? 'cancelled' : 'failed';
        entry.message = error instanceof Error ? error.message : String(error);
      });
  }

  cancel(): void {
    this.current?.cancel.abort();
  }
}
