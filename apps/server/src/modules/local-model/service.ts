import { join, resolve } from 'node:path';
import type { LocalModelDownloadInput, LocalModelStatus } from '@mbox/shared';
import { LOCAL_MODEL_CATALOGUE, catalogueModel } from '../../ai/local/catalogue.js';
import type { LocalModelHost } from '../../ai/local/host.js';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import type { AuthUser } from '../auth/service.js';

/** Administrators of the deployment: ADMIN_EMAILS, and in local sign-in mode every local account. */
export function isAdmin(deps: AppDeps, user: Pick<AuthUser, 'email'>): boolean {
  return deps.config.AUTH_MODE === 'local' || deps.config.ADMIN_EMAILS.includes(user.email.toLowerCase());
}

export function assertAdmin(deps: AppDeps, user: Pick<AuthUser, 'email'>): void {
  if (!isAdmin(deps, user)) {
    throw new AppError('FORBIDDEN', "Only the deployment's administrators (ADMIN_EMAILS) manage the AI model");
  }
}

function localHost(deps: AppDeps): LocalModelHost {
  const host = deps.ai.local;
  if (!host) {
    throw new AppError('PRECONDITION_FAILED', 'An OpenAI-compatible server answers (OPENAI_API_KEY / OPENAI_BASE_URL): the local model is used only without one');
  }
  return host;
}

export function localModelStatus(deps: AppDeps): LocalModelStatus {
  const host = deps.ai.local;
  const status = host?.status();
  const installed = host?.installedModels() ?? [];
  const active = host?.modelPath && resolve(host.modelPath);
  return {
    engine: deps.ai.engine,
    localAvailable: host !== undefined,
    model: {
      state: status?.state ?? 'none',
      file: status?.file ?? null,
      error: status?.error ?? null,
      contextTokens: status?.contextTokens ?? null,
      pinned: status?.pinned ?? false,
      queued: status?.queued ?? 0,
      running: status?.running ?? 0,
    },
    catalogue: [...LOCAL_MODEL_CATALOGUE],
    installed: installed.map((m) => ({ ...m, active: host !== undefined && active === resolve(host.options.dir, m.file) })),
    download: host?.downloads.state ?? null,
  };
}

/**
 * Starts a download into LOCAL_MODEL_DIR: a catalogue model by name, or the URL an administrator typed.
 * When it completes and no model is loaded yet, it becomes the model in use.
 */
export function startModelDownload(deps: AppDeps, input: LocalModelDownloadInput): LocalModelStatus {
  const host = localHost(deps);
  let request: { url: string; file: string; sha256: string | null };
  if (input.name !== undefined) {
    const entry = catalogueModel(input.name);
    if (!entry) throw new AppError('BAD_REQUEST', `'${input.name}' is not a model of the catalogue`);
    request = { url: entry.url, file: entry.file, sha256: entry.sha256 };
  } else {
    request = { url: input.url!, file: input.file!, sha256: null };
  }
  if (host.downloads.running) throw new AppError('CONFLICT', 'A model is already downloading: cancel it or wait for it');
  host.downloads.start(request, async (path) => {
    if (!host.modelPath && !host.pinned) await host.activate(path).catch(() => undefined);
  });
  return localModelStatus(deps);
}

export function cancelModelDownload(deps: AppDeps): LocalModelStatus {
  localHost(deps).downloads.cancel();
  return localModelStatus(deps);
}

/** Switches to an installed model without a restart; the old one finishes its generations first. */
export async function activateModel(deps: AppDeps, file: string): Promise<LocalModelStatus> {
  const host = localHost(deps);
  if (host.pinned) throw new AppError('PRECONDITION_FAILED', 'LOCAL_MODEL pins the model: unset it to switch models here');
  if (!host.installedModels().some((m) => m.file === file)) {
    throw new AppError('NOT_FOUND', `${file} is not installed in LOCAL_MODEL_DIR`);
  }
  try {
    await host.activate(join(resolve(host.options.dir), file));
  } catch (error) {
    throw new AppError('PRECONDITION_FAILED', error instanceof Error ? error.message : String(error));
  }
  return localModelStatus(deps);
}
