-- CreateTable
CREATE TABLE "ActionItem" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "meetingId" TEXT NOT NULL,
    "meetingStartedAt" TIMESTAMP(3) NOT NULL,
    "position" INTEGER NOT NULL,
    "sourceKey" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "dueDate" DATE,
    "status" TEXT NOT NULL DEFAULT 'open',
    "doneAt" TIMESTAMP(3),
    "messageId" TEXT,
    "speaker" TEXT NOT NULL DEFAULT '',
    "spokenAt" TIMESTAMP(3),
    "editedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ActionItem_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ActionItem_userId_meetingStartedAt_idx" ON "ActionItem"("userId", "meetingStartedAt" DESC);

-- CreateIndex
CREATE INDEX "ActionItem_userId_status_dueDate_idx" ON "ActionItem"("userId", "status", "dueDate");

-- CreateIndex
CREATE UNIQUE INDEX "ActionItem_meetingId_sourceKey_key" ON "ActionItem"("meetingId", "sourceKey");

-- AddForeignKey
ALTER TABLE "ActionItem" ADD CONSTRAINT "ActionItem_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ActionItem" ADD CONSTRAINT "ActionItem_meetingId_fkey" FOREIGN KEY ("meetingId") REFERENCES "Meeting"("id") ON DELETE CASCADE ON UPDATE CASCADE;
