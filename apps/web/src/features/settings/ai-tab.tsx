import { useState, type FormEvent } from 'react';
import { engineLabel } from '@mbox/shared/generation';
import type { LocalModelStatus } from '@mbox/shared/local-model';
import { trpc } from '../../lib/trpc';
import { PageLoader } from '../../routes/guards';

/** While a model downloads or loads, the status is read again this often. */
const BUSY_REFRESH_MS = 1000;

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function gigabytes(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/**
 * Settings › AI (docs/ai.md, "Local model"), for the deployment's administrators: the engine that
 * answers, the local model, the catalogue to download from, the installed models to switch between.
 */
export default function AiTab() {
  const utils = trpc.useUtils();
  const status = trpc.localModel.status.useQuery(undefined, {
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && (data.download?.state === 'running' || data.model.state === 'loading') ? BUSY_REFRESH_MS : false;
    },
  });
  const onStatus = (next: LocalModelStatus) => utils.localModel.status.setData(undefined, next);
  const download = trpc.localModel.download.useMutation({ onSuccess: onStatus });
  const cancel = trpc.localModel.cancelDownload.useMutation({ onSuccess: onStatus });
  const activate = trpc.localModel.activate.useMutation({ onSuccess: onStatus });
  const [url, setUrl] = useState('');
  const [file, setFile] = useState('');

  if (status.isLoading) return <PageLoader />;
  if (!status.data) return <p className="text-error">The AI settings could not be loaded. Reload the page to try again.</p>;
  const s = status.data;
  const downloading = s.download?.state === 'running';

  const downloadUrl = (event: FormEvent) => {
    event.preventDefault();
    download.mutate({ url, file });
  };

  return (
    <div className="flex max-w-3xl flex-col gap-8">
      <section aria-labelledby="ai-engine">
        <h2 id="ai-engine" className="mb-2 text-lg font-semibold">
          Engine in use
        </h2>
        <p data-testid="ai-engine">
          {s.engine === 'local'
            ? `${capitalised(engineLabel('local', s.model.file ?? ''))} answers, inside this server.`
            : s.engine === 'openai'
              ? 'An OpenAI-compatible server answers (OPENAI_API_KEY / OPENAI_BASE_URL); the local model is used only without one.'
              : 'The offline engine answers: it writes notes from the transcript and cannot translate. Download a model below for AI answers.'}
        </p>
        {s.model.state === 'loading' && <p role="status">Loading {s.model.file}…</p>}
        {s.model.error && (
          <p className="text-error" role="alert">
            {s.model.error}
          </p>
        )}
        {s.model.pinned && <p className="text-sm text-base-content/70">LOCAL_MODEL pins the model: unset it to switch models here.</p>}
      </section>

      {s.localAvailable && (
        <>
          {s.download && (
            <section aria-labelledby="ai-download">
              <h2 id="ai-download" className="mb-2 text-lg font-semibold">
                Download: {s.download.file}
              </h2>
              <progress
                className="progress progress-primary w-full"
                aria-label={`Downloading ${s.download.file}`}
                value={s.download.received}
                max={s.download.total ?? undefined}
              />
              <p className="text-sm" data-testid="ai-download-state">
                {s.download.state === 'running'
                  ? `${gigabytes(s.download.received)}${s.download.total ? ` of ${gigabytes(s.download.total)}` : ''}`
                  : s.download.state === 'done'
                    ? 'Downloaded.'
                    : s.download.message}
              </p>
              {downloading && (
                <button type="button" className="btn btn-sm mt-2" onClick={() => cancel.mutate()}>
                  Cancel download
                </button>
              )}
            </section>
          )}

          <section aria-labelledby="ai-installed">
            <h2 id="ai-installed" className="mb-2 text-lg font-semibold">
              Installed models
            </h2>
            {s.installed.length === 0 ? (
              <p>No model is installed yet.</p>
            ) : (
              <ul className="flex flex-col gap-2" aria-label="Installed models">
                {s.installed.map((m) => (
                  <li key={m.file} className="flex items-center gap-3" aria-label={m.file}>
                    <span className="flex-1">
                      {m.file} ({gigabytes(m.bytes)})
                    </span>
                    {m.active ? (
                      <span className="badge badge-success">In use</span>
                    ) : (
                      <button type="button" className="btn btn-sm" disabled={s.model.pinned || activate.isPending} onClick={() => activate.mutate({ file: m.file })}>
                        Use
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="ai-catalogue">
            <h2 id="ai-catalogue" className="mb-2 text-lg font-semibold">
              Recommended models
            </h2>
            {/* A card per model, not a table: the hash and six facts fit a phone's width this way. */}
            <ul className="flex flex-col gap-3" aria-labelledby="ai-catalogue">
              {s.catalogue.map((m) => (
                <li key={m.name} aria-label={m.label} className="rounded-box border border-base-300 p-3">
                  <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
                    <div className="min-w-0 flex-1">
                      <a className="link font-medium" href={m.url} rel="noreferrer" target="_blank">
                        {m.label}
                      </a>
                      <p className="text-sm">
                        {gigabytes(m.bytes)} file · {gigabytes(m.ramBytes)} RAM · {m.licence}
                      </p>
                      <p className="text-sm text-base-content/70">{m.languages}</p>
                      <p className="text-xs break-all text-base-content/60">SHA-256: {m.sha256 ?? 'none published here: reported after download'}</p>
                    </div>
                    <button
                      type="button"
                      className="btn btn-sm"
                      aria-label={`Download ${m.label}`}
                      disabled={downloading || s.installed.some((i) => i.file === m.file)}
                      onClick={() => download.mutate({ name: m.name })}
                    >
                      Download
                    </button>
                  </div>
                </li>
              ))}
            </ul>
            <form className="mt-4 flex flex-wrap items-end gap-2" onSubmit={downloadUrl}>
              <label className="flex w-full flex-col text-sm sm:w-auto">
                GGUF URL
                <input className="input input-sm w-full sm:w-80" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
              </label>
              <label className="flex flex-col text-sm">
                Save as
                <input className="input input-sm" required pattern="[\w+\-][\w.+\-]*\.gguf" value={file} onChange={(e) => setFile(e.target.value)} placeholder="model.gguf" />
              </label>
              <button type="submit" className="btn btn-sm" disabled={downloading}>
                Download
              </button>
            </form>
            {download.error && (
              <p className="text-error" role="alert">
                {download.error.message}
              </p>
            )}
            {activate.error && (
              <p className="text-error" role="alert">
                {activate.error.message}
              </p>
            )}
          </section>
        </>
      )}
    </div>
  );
}
