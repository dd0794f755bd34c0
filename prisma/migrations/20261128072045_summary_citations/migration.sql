-- AlterTable
ALTER TABLE "Summary" ADD COLUMN     "citations" JSONB NOT NULL DEFAULT '[]';
