import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { Mark, Message } from '@mbox/shared/meeting';
import { trpc } from '../../../lib/trpc';
import { updateTranscript } from '../use-live-transcript';
import { applyEdit, confirmEdit, mergeIntoCache, rollbackEdit, type EditableFields } from './transcript-cache';

/** The mark set after toggling one mark: added if absent, removed if present (product.md, States). */
export function toggleMark(marks: readonly Mark[], mark: Mark): Mark[] {
  return marks.includes(mark) ? marks.filter((m) => m !== mark) : [...marks, mark];
}

export interface MessageActions {
  toggleMark(message: Message, mark: Mark): void;
  /** Saves a comment (empty removes it); a comment brings the 'commented' mark, removing it drops the mark. */
  saveComment(message: Message, comment: string): void;
  optimize(message: Message): void;
  /** Keys of lines being optimized right now. */
  optimizing: ReadonlySet<string>;
}

/**
 * Marks, comments and AI fixes of a meeting's lines. Marks and comments show at once and are then
 * saved (the full set of marks, as the server stores it); a failure puts the line back and is toasted
 * by the one error handler. Each line's edits carry a token so only its newest edit decides.
 */
export function useMessageActions(meetingId: string): MessageActions {
  const queryClient = useQueryClient();
  const tokens = useRef(0);
  const [optimizing, setOptimizing] = useState<ReadonlySet<string>>(new Set());
  const markMutation = trpc.message.mark.useMutation();
  const commentMutation = trpc.message.comment.useMutation();
  const aiFixMutation = trpc.message.aiFix.useMutation();
  const { mutateAsync: saveMarks } = markMutation;
  const { mutateAsync: saveCommentText } = commentMutation;
  const { mutateAsync: fixLine } = aiFixMutation;

  const edit = useCallback(
    async (key: string, fields: EditableFields, save: () => Promise<Message>) => {
      const token = (tokens.current += 1);
      updateTranscript(queryClient, meetingId, (cache) => applyEdit(cache, key, fields, token));
      try {
        const saved = await save();
        updateTranscript(queryClient, meetingId, (cache) => confirmEdit(cache, key, token, saved));
      } catch {
        // The error is toasted by the mutation cache; here the line only goes back.
        updateTranscript(queryClient, meetingId, (cache) => rollbackEdit(cache, key, token));
      }
    },
    [meetingId, queryClient],
  );

  const toggle = useCallback(
    (message: Message, mark: Mark) => {
      const marks = toggleMark(message.marks, mark);
      void edit(message.key, { marks }, () => saveMarks({ id: message.key, marks }));
    },
    [edit, saveMarks],
  );

  const saveComment = useCallback(
    (message: Message, text: string) => {
      const comment = text.trim();
      const hasMark = message.marks.includes('commented');
      const marks = comment && !hasMark ? [...message.marks, 'commented' as const] : !comment && hasMark ? message.marks.filter((m) => m !== 'commented') : null;
      void edit(message.key, marks ? { comment, marks } : { comment }, async () => {
        const saved = await saveCommentText({ id: message.key, comment });
        return marks ? saveMarks({ id: message.key, marks }) : saved;
      });
    },
    [edit, saveCommentText, saveMarks],
  );

  const optimize = useCallback(
    (message: Message) => {
      setOptimizing((keys) => new Set(keys).add(message.key));
      fixLine({ id: message.key })
        .then(
          ({ message: fixed }) => updateTranscript(queryClient, meetingId, (cache) => mergeIntoCache(cache, [fixed])),
          () => {
            // Toasted by the mutation cache; the line keeps its text.
          },
        )
        .finally(() =>
          setOptimizing((keys) => {
            const rest = new Set(keys);
            rest.delete(message.key);
            return rest;
          }),
        );
    },
    [fixLine, meetingId, queryClient],
  );

  return { toggleMark: toggle, saveComment, optimize, optimizing };
}
