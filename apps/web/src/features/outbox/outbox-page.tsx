import { useSearchParams } from 'react-router';
import { recapEmailPath, type Recap } from '@mbox/shared/recap';
import { trpc } from '../../lib/trpc';
import { Page } from '../../routes/page';

/** Newest pages refresh on their own while a recap is still on its way. */
const REFRESH_MS = 4000;

function formatTime(epochMs: number): string {
  return new Date(epochMs).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function StatusBadge({ recap, outbox }: { recap: Recap; outbox: boolean }) {
  const [label, tone] =
    recap.status === 'sent'
      ? [outbox ? 'Written to outbox' : 'Sent', 'badge-success']
      : recap.status === 'failed'
        ? ['Failed', 'badge-error']
        : recap.status === 'skipped'
          ? ['Not sent', 'badge-ghost']
          : recap.error
            ? ['Retrying', 'badge-warning']
            : ['Sending', 'badge-info'];
  return <span className={`badge badge-sm badge-soft shrink-0 ${tone}`}>{label}</span>;
}

function RecapRow({ recap, outbox, selected, onSelect }: { recap: Recap; outbox: boolean; selected: boolean; onSelect: () => void }) {
  const note = recap.status === 'skipped' ? recap.skippedReason : recap.error;
  return (
    <li>
      <button
        type="button"
        onClick={onSelect}
        aria-current={selected ? 'true' : undefined}
        data-testid="recap-row"
        className={`flex w-full flex-col gap-1 rounded-box border p-3 text-left transition-colors hover:bg-base-200 ${
          selected ? 'border-primary bg-base-200' : 'border-base-300 bg-base-100'
        }`}
      >
        <span className="flex items-start justify-between gap-2">
          <span className="min-w-0 font-medium break-words">{recap.subject || recap.meetingTitle}</span>
          <StatusBadge recap={recap} outbox={outbox} />
        </span>
        <span className="text-sm text-base-content/70">
          <time dateTime={new Date(recap.sentAt ?? recap.createdAt).toISOString()}>{formatTime(recap.sentAt ?? recap.createdAt)}</time>
          {recap.recipients.length > 0 && <span className="break-all"> · to {recap.recipients.join(', ')}</span>}
        </span>
        {note && (
          <span className={`text-sm break-words ${recap.status === 'skipped' ? 'text-base-content/70' : 'text-error'}`}>{note}</span>
        )}
        {recap.refused && recap.status !== 'skipped' && <span className="text-sm break-words text-warning">{recap.refused}</span>}
      </button>
    </li>
  );
}

function RecapPreview({ recapId }: { recapId: string }) {
  const recap = trpc.recap.get.useQuery({ recapId });
  if (recap.isPending) {
    return (
      <div className="flex justify-center py-16">
        <span className="loading loading-spinner loading-lg" role="status" aria-label="Loading" />
      </div>
    );
  }
  if (recap.isError) return <p className="text-base-content/70">This recap could not be loaded.</p>;
  const { data } = recap;
  if (!data.html) {
    return (
      <p className="text-base-content/70">
        {data.status === 'skipped' ? `Nothing was sent: ${data.skippedReason}.` : 'The message is still being written.'}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      {data.refused && (
        <p role="note" className="text-sm text-warning">
          {data.status === 'skipped' ? `Nothing was sent. ${data.refused}.` : `${data.refused}.`}
        </p>
      )}
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-base-content/70">Subject</dt>
        <dd className="break-words">{data.subject}</dd>
        <dt className="text-base-content/70">To</dt>
        <dd className="break-all">{data.recipients.join(', ')}</dd>
      </dl>
      {/* The e-mail as received, served with its own style policy (an srcdoc frame would inherit the app's and
          lose the e-mail's styles); sandbox="" runs no script and follows no link inside it. */}
      <iframe
        title={`E-mail: ${data.subject}`}
        sandbox=""
        src={recapEmailPath(data.id)}
        className="h-[70vh] w-full rounded-box border border-base-300 bg-white"
      />
    </div>
  );
}

/** /outbox: the recap e-mails of the user's meetings, what they said and whether they went out. */
export function OutboxPage() {
  const [params, setParams] = useSearchParams();
  const list = trpc.recap.list.useInfiniteQuery(
    { limit: 50 },
    {
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      refetchInterval: (query) =>
        query.state.data?.pages.some((p) => p.recaps.some((r) => r.status === 'pending' || r.status === 'sending')) ? REFRESH_MS : false,
    },
  );
  const recaps = list.data?.pages.flatMap((p) => p.recaps) ?? [];
  const outbox = list.data?.pages[0]?.transport === 'outbox';
  const selectedId = params.get('recap') ?? recaps[0]?.id ?? null;

  return (
    <Page title="Outbox">
      {outbox && (
        <div role="note" className="alert alert-info alert-soft mb-4">
          <span>
            No mail server is set up on this server (<code>SMTP_URL</code>), so recaps are not sent: each one is written to the
            outbox folder on the server (<code>DATA_DIR/outbox</code>, one .eml file per message) and shown here.
          </span>
        </div>
      )}
      {list.isPending ? (
        <div className="flex justify-center py-16">
          <span className="loading loading-spinner loading-lg" role="status" aria-label="Loading" />
        </div>
      ) : list.isError ? (
        <p className="text-base-content/70">The outbox could not be loaded.</p>
      ) : recaps.length === 0 ? (
        <div className="rounded-box border border-dashed border-base-300 p-8 text-center">
          <h2 className="text-lg font-semibold">No recaps yet</h2>
          <p className="mx-auto mt-2 max-w-prose text-base-content/70">
            When a meeting ends (you leave the call, or no captions arrive for a while), Mbox e-mails you its summary. Each
            recap appears here, with what it said and whether it went out.
          </p>
        </div>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className="flex flex-col gap-3">
            <ul className="flex flex-col gap-2" aria-label="Recaps">
              {recaps.map((recap) => (
                <RecapRow
                  key={recap.id}
                  recap={recap}
                  outbox={outbox}
                  selected={recap.id === selectedId}
                  onSelect={() => setParams({ recap: recap.id }, { replace: true })}
                />
              ))}
            </ul>
            {list.hasNextPage && (
              <button type="button" className="btn btn-ghost btn-sm self-start" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                Load more
              </button>
            )}
          </div>
          <section aria-label="Recap preview">{selectedId && <RecapPreview recapId={selectedId} />}</section>
        </div>
      )}
    </Page>
  );
}
