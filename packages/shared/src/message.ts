import { z } from 'zod';
import { markSchema } from './meeting.js';

/** Longest comment on a message; a note, not a document. */
export const MAX_COMMENT_LENGTH = 2000;

const messageIdSchema = z.string().trim().min(1).max(100);

/** PUT /v1/message/mark/{id}: the full set of marks to store (toggling is the client's). */
export const markMessageInputSchema = z.strictObject({
  id: messageIdSchema,
  // Repeats are tolerated (stored once); floods are not.
  marks: z.array(markSchema).max(20),
});

/** PUT /v1/message/comment/{id}: an empty comment removes it. */
export const commentMessageInputSchema = z.strictObject({
  id: messageIdSchema,
  comment: z.string().max(MAX_COMMENT_LENGTH),
});

export const messageIdInputSchema = z.strictObject({ id: messageIdSchema });
