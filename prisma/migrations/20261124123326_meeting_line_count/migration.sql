-- AlterTable
ALTER TABLE "Meeting" ADD COLUMN     "lineCount" INTEGER;

-- Meetings that ended before this column existed get their count now, as markMeetingEnded stores it.
UPDATE "Meeting" AS m SET "lineCount" = (SELECT count(*) FROM "Message" AS c WHERE c."meetingId" = m.id)
WHERE m."endedAt" IS NOT NULL;
