/** Spec §2 summary panel of the meeting screen (filled in by the summary work). */
export function SummaryPanel({ meetingId }: { meetingId: string }) {
  return (
    <div className="h-full bg-base-100" data-meeting={meetingId}>
      <h2 className="border-b border-base-300 px-4 py-3 text-lg font-semibold">Summary</h2>
    </div>
  );
}
