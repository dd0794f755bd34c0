import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, statfs } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { formatGb } from './memory.js';

/** A model download that cannot go on: no space, a refused URL or file name, a bad checksum, cancelled. */
export class ModelDownloadError extends Error {
  override readonly name = 'ModelDownloadError';
  constructor(
    readonly reason: 'disk' | 'url' | 'file' | 'http' | 'checksum' | 'cancelled',
    message: string,
  ) {
    super(message);
  }
}

export interface DownloadProgress {
  received: number;
  /** Bytes of the whole file; undefined until the server says. */
  total?: number;
}

export interface ModelDownload {
  url: string;
  /** LOCAL_MODEL_DIR: the only folder downloads are written to. */
  dir: string;
  /** The file's name in `dir` (a plain `*.gguf` name, no folders). */
  file: string;
  /** The published SHA-256 (hex): the file is kept only if it matches. */
  sha256?: string | null;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** Reconnections after a dropped connection, each resuming where the file stopped. */
  retries?: number;
}

/** Disk space kept free beyond the file itself. */
const DISK_MARGIN = 256 * 1024 * 1024;

async function sizeOf(path: string): Promise<number> {
  return stat(path).then((s) => s.size, () => 0);
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** The total size of the file, from a 206's Content-Range or a 200's Content-Length. */
function totalOf(response: Response, offset: number): number | undefined {
  const range = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
  if (range) return Number(range[1]);
  const length = Number(response.headers.get('content-length'));
  return Number.isFinite(length) && length > 0 ? length + (response.status === 206 ? offset : 0) : undefined;
}

/**
 * Downloads a GGUF into LOCAL_MODEL_DIR: to `<file>.part` first, resumed with a Range request after a
 * dropped connection or a restart, after a check that the disk has room; then the SHA-256 is checked
 * and the file takes its name. A cancelled download keeps its part, so the next one resumes it.
 */
export async function downloadModel(options: ModelDownload): Promise<{ path: string; bytes: number; sha256: string }> {
  if (!/^[\w.+-]+\.gguf$/i.test(options.file) || options.file.startsWith('.')) {
    throw new ModelDownloadError('file', `'${options.file}' is not a model file name: letters, digits, '.', '-', '_', ending in .gguf.`);
  }
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new ModelDownloadError('url', `'${options.url}' is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ModelDownloadError('url', 'A model downloads over http(s) only.');
  const dir = resolve(options.dir);
  await mkdir(dir, { recursive: true });
  const path = join(dir, options.file);
  const part = `${path}.part`;
  const retries = options.retries ?? 5;

  for (let attempt = 0; ; attempt++) {
    const offset = await sizeOf(part);
    let response: Response;
    try {
      response = await fetch(url, { headers: offset > 0 ? { range: `bytes=${offset}-` } : {}, signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted) throw new ModelDownloadError('cancelled', 'The download was cancelled; starting it again resumes it.');
      if (attempt < retries) continue;
      throw new ModelDownloadError('http', `Could not reach ${url.host}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.status === 416 && offset > 0) break; // the part is already whole
    if (response.status !== 200 && response.status !== 206) {
      throw new ModelDownloadError('http', `${url.host} answered ${response.status} for the model.`);
    }
    // A server that ignores Range sends the whole file again: start over.
    const start = response.status === 206 ? offset : 0;
    const total = totalOf(response, start);
    if (total !== undefined) {
      const { bavail, bsize } = await statfs(dir);
      const free = bavail * bsize;
      if (total - start + DISK_MARGIN > free) {
        await response.body?.cancel();
        throw new ModelDownloadError('disk', `The model needs ${formatGb(total - start)} more disk space in ${dir} and ${formatGb(free)} is free.`);
      }
    }
    let received = start;
    options.onProgress?.({ received, total });
    const body = Readable.fromWeb(response.body as ReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      options.onProgress?.({ received, total });
    });
    try {
      await pipeline(body, createWriteStream(part, { flags: start > 0 ? 'a' : 'w' }));
    } catch (error) {
      if (options.signal?.aborted) throw new ModelDownloadError('cancelled', 'The download was cancelled; starting it again resumes it.');
      if (attempt < retries) continue; // the connection dropped: resume from what arrived
      throw new ModelDownloadError('http', `The download of ${options.file} kept failing: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (total === undefined || (await sizeOf(part)) >= total) break;
    if (attempt >= retries) throw new ModelDownloadError('http', `The download of ${options.file} stopped short.`);
  }

  const sha256 = await sha256Of(part);
  if (options.sha256 && sha256 !== options.sha256.toLowerCase()) {
    await rm(part, { force: true });
    throw new ModelDownloadError('checksum', `The downloaded file's SHA-256 is ${sha256}, not the published ${options.sha256}: it was deleted.`);
  }
  await rename(part, path);
  return { path, bytes: await sizeOf(path), sha256 };
}
