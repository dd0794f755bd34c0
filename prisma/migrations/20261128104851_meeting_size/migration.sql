-- AlterTable
ALTER TABLE "Meeting" ADD COLUMN     "storedLines" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "storedTextBytes" INTEGER NOT NULL DEFAULT 0;

-- Meetings captured before these columns existed get their size now (a byte count past the column's
-- range is held at its maximum: such a meeting takes no more lines either way).
UPDATE "Meeting" AS m
SET "storedLines" = s.lines, "storedTextBytes" = LEAST(s.bytes, 2147483647)
FROM (SELECT "meetingId", count(*)::int AS lines, sum(octet_length(text)) AS bytes FROM "Message" GROUP BY "meetingId") AS s
WHERE s."meetingId" = m.id;
