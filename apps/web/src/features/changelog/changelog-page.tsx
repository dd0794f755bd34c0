import { displayChangeType, type Change, type ChangeType, type ChangelogEntry } from '@mbox/shared/changelog';
import { CHANGELOG_ERROR } from '@mbox/shared/ui-messages';
import { trpc } from '../../lib/trpc';
import { Page } from '../../routes/page';

const TYPE_BADGE: Record<ChangeType, string> = {
  New: 'badge-success',
  Improvement: 'badge-info',
  Fix: 'badge-warning',
};

/** A release day (yyyy-MM-dd) as a long English date, the same whatever the reader's time zone. */
export function releaseDate(day: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

function ChangeItem({ change }: { change: Change }) {
  const type = displayChangeType(change.type);
  return (
    <li className="flex flex-col gap-1" data-testid="change">
      <div className="flex items-start gap-2">
        <span className={`badge badge-sm badge-soft mt-0.5 w-24 shrink-0 ${TYPE_BADGE[type]}`}>{type}</span>
        <span className="min-w-0 break-words">{change.description}</span>
      </div>
      {change.subChanges && change.subChanges.length > 0 && (
        <ul className="ml-4 flex flex-col gap-1 border-l border-base-300 pl-4 sm:ml-26">
          {change.subChanges.map((sub, i) => (
            <ChangeItem key={i} change={sub} />
          ))}
        </ul>
      )}
    </li>
  );
}

function Release({ entry }: { entry: ChangelogEntry }) {
  return (
    <article className="card border border-base-300 bg-base-100" data-testid="release">
      <div className="card-body gap-4 p-4 sm:p-6">
        <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h2 className="text-xl font-semibold">Version {entry.version}</h2>
          <time className="text-sm text-base-content/70" dateTime={entry.date}>
            {releaseDate(entry.date)}
          </time>
        </header>
        <ul className="flex flex-col gap-2">
          {entry.changes.map((change, i) => (
            <ChangeItem key={i} change={change} />
          ))}
        </ul>
      </div>
    </article>
  );
}

/** /changelog (product.md, Screens): versions with dates and typed changes; spinner, then the list or 'Error: try again later'. */
export function ChangelogPage() {
  // product.md, Errors: the page says the error itself, so no toast on top.
  const changelog = trpc.changelog.list.useQuery(undefined, { staleTime: 5 * 60_000, meta: { silent: true } });
  return (
    <Page title="ChangeLog">
      {changelog.isPending ? (
        <div className="flex justify-center py-16">
          <span className="loading loading-spinner loading-lg" role="status" aria-label="Loading" />
        </div>
      ) : changelog.isError ? (
        <div role="alert" className="alert alert-error">
          {CHANGELOG_ERROR}
        </div>
      ) : changelog.data.length === 0 ? (
        <p className="text-base-content/70">No releases yet.</p>
      ) : (
        <div className="flex flex-col gap-6">
          {changelog.data.map((entry) => (
            <Release key={entry.version} entry={entry} />
          ))}
        </div>
      )}
    </Page>
  );
}
