import type { Meeting } from '@mbox/shared/meeting';
import { ExportMenu } from '../export/export-menu';
import { ShareButton } from '../share/share-button';

/**
 * The meeting's own actions in the transcript header, beside the line filter: each feature adds its
 * control here (export: features/export, share: features/share).
 */
export function MeetingActions({ meet }: { meet: Meeting }) {
  return (
    <>
      <ExportMenu meet={meet} />
      <ShareButton meet={meet} />
    </>
  );
}
