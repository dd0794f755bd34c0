import { NEW_MEET_URL } from '../../lib/links';
import { ExtensionStatus } from '../extension/extension-status';

/**
 * The empty state of docs/product.md, "Meeting screen", shown once per screen (the first run of '/'
 * and of the dashboard): its texts, then where meetings come from, the extension, and whether it is
 * connected.
 */
export function MeetingsEmptyState() {
  return (
    <div className="flex flex-col items-center gap-3 p-6 text-center" data-testid="meetings-empty">
      <h3 className="text-lg font-semibold">No meetings (yet)</h3>
      <p className="text-base-content/80">You don&apos;t have any meetings to show yet</p>
      <p className="text-sm text-base-content/70">Please start any Google Meet meeting for displaying it here</p>
      <a className="btn btn-primary btn-sm" href={NEW_MEET_URL} target="_blank" rel="noopener noreferrer">
        New Google Meet
      </a>
      <div className="mt-3 w-full max-w-md border-t border-base-300 pt-4">
        <ExtensionStatus />
      </div>
    </div>
  );
}
