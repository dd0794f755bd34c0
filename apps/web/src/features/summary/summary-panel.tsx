import { useMemo, useState } from 'react';
import { ORIGINAL_LANGUAGE_CODE, languageCodeSchema, promptTitle, type LanguageCode, type SummarySettingsInput } from '@mbox/shared/prompts/index';
import type { Summary } from '@mbox/shared/summary';
import { SUMMARY_UNAVAILABLE_MESSAGE } from '@mbox/shared/summary-availability';
import { MIN_QUESTION_LENGTH } from '@mbox/shared/ui-messages';
import { reportEmptyResult } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { trpc } from '../../lib/trpc';
import { engineLabel, engineOfModel } from '@mbox/shared/generation';
import { AiUsageNote, useRefreshAiUsage } from '../ai-usage/ai-usage-note';
import { UpgradeCard } from '../premium/upgrade-card';
import { LanguageOptions, TranslationNeedsModel, useTranslationAvailable } from './language-options';
import { buildPromptOptions, customOptionId, isEmptyResult, upsertSummary, withTranslation, type PromptOption } from './prompt-options';
import { streamPreview } from './stream-preview';
import { SummarySettingsDialog } from './summary-settings-dialog';
import { SummaryText } from './summary-text';
import { useSummaryStream, type SummaryStream } from './use-summary-stream';

/** Picker value of a question being answered, until its stored summary (and docId) arrives. */
const ASKING = 'custom:asking';

/**
 * product.md, Screens / States summary panel of the meeting screen; state resets when the meeting changes. `onCitation`
 * runs after a cited line was opened in the transcript.
 */
export function SummaryPanel({ meetingId, onCitation }: { meetingId: string; onCitation?: () => void }) {
  return <SummaryWorkspace key={meetingId} meetingId={meetingId} onCitation={onCitation} />;
}

function SummaryWorkspace({ meetingId, onCitation }: { meetingId: string; onCitation?: () => void }) {
  const { premium } = useSession();
  const translationAvailable = useTranslationAvailable();
  const utils = trpc.useUtils();
  // product.md, Errors: a failed summary load is only logged and gives an empty view.
  const list = trpc.summary.list.useQuery({ id: meetingId }, { meta: { silent: true } });
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [language, setLanguage] = useState<LanguageCode>(ORIGINAL_LANGUAGE_CODE);
  const [question, setQuestion] = useState('');
  const [asking, setAsking] = useState<string | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [previousId, setPreviousId] = useState<string | null>(null);

  const options = useMemo(
    () => (list.data ? buildPromptOptions(list.data.promptList, list.data.summaries) : []),
    [list.data],
  );
  const selected: PromptOption | undefined =
    selectedId === ASKING ? undefined : (options.find((o) => o.id === selectedId) ?? options[0]);
  const summary = selected?.summary;
  const disabled = list.data?.summariesDisabled ?? false;

  const { stream, start } = useSummaryStream(meetingId, (optionId, stored) => {
    if (optionId !== ASKING) return;
    setAsking(null);
    // The answer joins the prompt list under its title and is shown; a failed question goes back.
    setSelectedId(stored ? customOptionId(stored.docId) : previousId);
    if (stored) setQuestion('');
  });

  const storeRegenerated = (stored: Summary) => {
    if (isEmptyResult(stored.text)) {
      reportEmptyResult();
      return;
    }
    utils.summary.list.setData({ id: meetingId }, (current) => (current ? upsertSummary(current, stored) : current));
  };
  const refreshUsage = useRefreshAiUsage();
  const regenerate = trpc.summary.regenerate.useMutation({ onSuccess: storeRegenerated, onSettled: refreshUsage });
  const regenerateWithSettings = trpc.summary.regenerateWithSettings.useMutation({ onSuccess: storeRegenerated, onSettled: refreshUsage });
  const translate = trpc.summary.translate.useMutation({ onSettled: refreshUsage });
  const regenerating = regenerate.isPending || regenerateWithSettings.isPending;
  const busy = stream !== null || regenerating || translate.isPending;

  const generate = (option: PromptOption) => {
    if (disabled) return;
    start(option.id, option.label, { meetKey: meetingId, promptKey: option.promptKey });
  };

  const choosePrompt = (id: string) => {
    if (busy) return;
    setSelectedId(id);
    setLanguage(ORIGINAL_LANGUAGE_CODE);
    const option = options.find((o) => o.id === id);
    // product.md, States: choosing a type shows its summary, or generates it (ignored while summaries are disabled).
    if (option && !option.summary && option.promptKey !== 'custom') generate(option);
  };

  const runRegenerate = (settings?: SummarySettingsInput) => {
    if (!summary || busy) return;
    setLanguage(ORIGINAL_LANGUAGE_CODE);
    const input = { summaryKey: summary.docId, meetKey: meetingId, promptKey: summary.promptKey };
    if (settings) regenerateWithSettings.mutate({ ...input, settings });
    else regenerate.mutate(input);
  };

  const chooseLanguage = (code: LanguageCode) => {
    if (!summary) return;
    setLanguage(code);
    // English is the original and a stored translation is reused: neither needs a call (product.md, States).
    if (code === ORIGINAL_LANGUAGE_CODE || summary.translations[code]) return;
    translate.mutate(
      { meetKey: meetingId, type: summary.type, summaryKey: summary.docId, languageKey: code },
      {
        onSuccess: ({ text }) => {
          if (isEmptyResult(text)) {
            reportEmptyResult();
            setLanguage(ORIGINAL_LANGUAGE_CODE);
            return;
          }
          utils.summary.list.setData({ id: meetingId }, (current) =>
            current ? withTranslation(current, summary.docId, code, text) : current,
          );
        },
        onError: () => setLanguage(ORIGINAL_LANGUAGE_CODE),
      },
    );
  };

  const ask = (event: React.FormEvent) => {
    event.preventDefault();
    const text = question.trim();
    if (text.length < MIN_QUESTION_LENGTH || busy || disabled) return;
    setAsking(text);
    setPreviousId(selected?.id ?? null);
    setSelectedId(ASKING);
    setLanguage(ORIGINAL_LANGUAGE_CODE);
    start(ASKING, promptTitle('custom', text), { meetKey: meetingId, promptKey: 'custom', customPrompt: text });
  };

  const shownStream: SummaryStream | null =
    stream && (stream.optionId === (selectedId === ASKING ? ASKING : selected?.id)) ? stream : null;
  const translation = summary && language !== ORIGINAL_LANGUAGE_CODE ? summary.translations[language] : undefined;
  const translating = translate.isPending && language !== ORIGINAL_LANGUAGE_CODE && !translation;
  const pickerValue = selectedId === ASKING ? ASKING : (selected?.id ?? '');
  const controlsLocked = busy || disabled || !list.data;

  return (
    <section className="flex h-full min-w-0 flex-col bg-base-100" aria-label="Summary" data-testid="summary-panel">
      <header className="flex flex-col gap-3 border-b border-base-300 px-4 py-3">
        <div className="flex items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">Summary</h2>
          <div className="flex items-center gap-1">
            {premium && (
              <button
                type="button"
                className="btn btn-ghost btn-sm btn-square"
                aria-label="Summary settings"
                title={summary ? 'Summary settings' : 'Generate a summary first'}
                disabled={!summary || controlsLocked}
                onClick={() => setSettingsOpen(true)}
              >
                <SettingsIcon />
              </button>
            )}
            {summary && (
              <button
                type="button"
                className="btn btn-outline btn-sm"
                disabled={controlsLocked}
                onClick={() => runRegenerate()}
              >
                {regenerating ? <span className="loading loading-spinner loading-xs" /> : <RegenerateIcon />}
                Regenerate
              </button>
            )}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <label className="min-w-40 flex-[2_1_10rem]">
            <span className="sr-only">Prompt type</span>
            <select
              className="select select-sm w-full"
              aria-label="Prompt type"
              value={pickerValue}
              disabled={controlsLocked}
              onChange={(e) => choosePrompt(e.target.value)}
            >
              {options.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.label}
                </option>
              ))}
              {asking && <option value={ASKING}>{promptTitle('custom', asking)}</option>}
            </select>
          </label>
          <label className="min-w-32 flex-[1_1_8rem]">
            <span className="sr-only">Language</span>
            <select
              className="select select-sm w-full"
              aria-label="Language"
              value={language}
              disabled={!summary || controlsLocked || !translationAvailable}
              onChange={(e) => chooseLanguage(languageCodeSchema.parse(e.target.value))}
            >
              <LanguageOptions />
            </select>
          </label>
        </div>
        {!translationAvailable && <TranslationNeedsModel />}
      </header>

      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4" data-testid="summary-content">
        {list.isPending ? (
          <div className="flex h-full items-center justify-center" role="status" aria-label="Loading summaries">
            <span className="loading loading-dots loading-md text-primary" />
          </div>
        ) : !list.data ? (
          <p className="text-sm text-base-content/70">No summaries to show.</p>
        ) : disabled ? (
          // That a meeting cannot be summarised yet (docs/product.md, "Errors") is information, not a
          // failure (a live meeting gets there as people speak): a note, announced politely.
          <div role="status" className="alert alert-info alert-soft text-sm" data-testid="summary-unavailable">
            <span>{SUMMARY_UNAVAILABLE_MESSAGE}</span>
          </div>
        ) : shownStream ? (
          <StreamingAnswer stream={shownStream} />
        ) : selectedId === ASKING ? null : !summary || !selected ? (
          <EmptySummary label={selected?.label ?? 'Summary'} onGenerate={() => selected && generate(selected)} busy={busy} />
        ) : (
          <article aria-busy={regenerating || translating} className={regenerating ? 'opacity-50 transition-opacity' : ''}>
            <div className="mb-3 flex items-start justify-between gap-2">
              <h3 className="font-semibold" data-testid="summary-title">
                {summary.title}
              </h3>
              {regenerating && <StatusNote text="Regenerating…" />}
            </div>
            {translating ? (
              <div className="flex items-center gap-2 py-6 text-sm text-base-content/70" role="status">
                <span className="loading loading-spinner loading-sm text-primary" />
                Translating…
              </div>
            ) : (
              <SummaryText
                meetingId={meetingId}
                html={translation?.text ?? summary.text}
                citations={summary.citations}
                lang={translation ? language : 'en'}
                onCitation={onCitation}
              />
            )}
            <WrittenBy model={summary.model} />
          </article>
        )}
      </div>

      <footer className="border-t border-base-300 px-4 py-3">
        {premium ? (
          <form className="flex gap-2" onSubmit={ask}>
            <input
              type="text"
              className="input input-sm min-w-0 flex-1"
              placeholder="Ask assistant?"
              aria-label="Ask assistant?"
              value={question}
              maxLength={1000}
              disabled={disabled || !list.data}
              onChange={(e) => setQuestion(e.target.value)}
            />
            <button
              type="submit"
              className="btn btn-primary btn-sm"
              disabled={question.trim().length < MIN_QUESTION_LENGTH || busy || disabled}
            >
              Ask
            </button>
          </form>
        ) : (
          <UpgradeCard compact />
        )}
      </footer>

      {premium && (
        <SummarySettingsDialog
          open={settingsOpen}
          onClose={() => setSettingsOpen(false)}
          onApply={(settings) => {
            setSettingsOpen(false);
            runRegenerate(settings);
          }}
        />
      )}
    </section>
  );
}

/** The answer as it is written: readable text so far, a blinking caret and an in-progress note. */
function StreamingAnswer({ stream }: { stream: SummaryStream }) {
  const text = streamPreview(stream.text);
  return (
    <article aria-busy="true" data-testid="summary-streaming">
      <div className="mb-3 flex items-start justify-between gap-2">
        <h3 className="font-semibold">{stream.title}</h3>
        <StatusNote text="Generating…" />
      </div>
      <p className="whitespace-pre-wrap text-sm leading-relaxed" data-testid="summary-stream-text">
        {text}
        <span className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-primary align-text-bottom" aria-hidden="true" />
      </p>
    </article>
  );
}

function StatusNote({ text }: { text: string }) {
  return (
    <span className="badge badge-soft badge-primary badge-sm shrink-0 gap-1" role="status">
      <span className="loading loading-spinner loading-xs" />
      {text}
    </span>
  );
}

function EmptySummary({ label, onGenerate, busy }: { label: string; onGenerate: () => void; busy: boolean }) {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 px-2 py-8 text-center">
      <div className="rounded-full bg-primary/10 p-3 text-primary">
        <SparkIcon />
      </div>
      <div>
        <p className="font-medium">No “{label}” yet</p>
        <p className="text-sm text-base-content/70">Generate it from the meeting’s transcript.</p>
      </div>
      <button type="button" className="btn btn-primary btn-sm" onClick={onGenerate} disabled={busy}>
        Generate
      </button>
      <AiUsageNote />
    </div>
  );
}

const iconProps = {
  xmlns: 'http://www.w3.org/2000/svg',
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
} as const;

function SettingsIcon() {
  return (
    <svg {...iconProps} className="h-4 w-4">
      <path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0" />
      <circle cx="16" cy="6" r="2" />
      <circle cx="10" cy="12" r="2" />
      <circle cx="18" cy="18" r="2" />
    </svg>
  );
}

function RegenerateIcon() {
  return (
    <svg {...iconProps} className="h-4 w-4">
      <path d="M20 11a8 8 0 0 0-14.9-3.5M4 4v4h4M4 13a8 8 0 0 0 14.9 3.5M20 20v-4h-4" />
    </svg>
  );
}

function SparkIcon() {
  return (
    <svg {...iconProps} className="h-6 w-6">
      <path d="M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8L12 3zM19 16l.8 2.2L22 19l-2.2.8L19 22l-.8-2.2L16 19l2.2-.8L19 16z" />
    </svg>
  );
}

/** Which engine wrote the summary (the offline engine, the local model, the AI server's model). */
function WrittenBy({ model }: { model: string }) {
  const engine = engineOfModel(model);
  if (!engine) return null;
  return (
    <p className="mt-2 text-xs text-base-content/60" data-testid="summary-engine">
      Written by {engineLabel(engine, model)}
    </p>
  );
}
