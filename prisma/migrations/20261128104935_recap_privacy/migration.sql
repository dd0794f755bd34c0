-- AlterTable
ALTER TABLE "Recap" ADD COLUMN     "composedAt" TIMESTAMP(3),
ADD COLUMN     "encrypted" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "refused" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "RecapRecipient" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "confirmationSentAt" TIMESTAMP(3),
    "error" TEXT NOT NULL DEFAULT '',
    "respondedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RecapRecipient_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RecapRecipient_userId_email_key" ON "RecapRecipient"("userId", "email");

-- AddForeignKey
ALTER TABLE "RecapRecipient" ADD CONSTRAINT "RecapRecipient_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
