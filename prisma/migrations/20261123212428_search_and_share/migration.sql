-- The search's trigram fallback for names and titles (PGlite loads it in apps/server/src/db/pglite.ts).
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- AlterTable
ALTER TABLE "Meeting" ADD COLUMN     "searchConfig" TEXT NOT NULL DEFAULT 'english',
ADD COLUMN     "shareTokenHash" TEXT,
ADD COLUMN     "sharedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "searchVector" tsvector;

-- AlterTable
ALTER TABLE "Summary" ADD COLUMN     "searchVector" tsvector;

-- CreateIndex
CREATE UNIQUE INDEX "Meeting_shareTokenHash_key" ON "Meeting"("shareTokenHash");

-- CreateIndex
CREATE INDEX "Meeting_title_idx" ON "Meeting" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Message_searchVector_idx" ON "Message" USING GIN ("searchVector");

-- CreateIndex
CREATE INDEX "Message_user_idx" ON "Message" USING GIN ("user" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Summary_searchVector_idx" ON "Summary" USING GIN ("searchVector");
