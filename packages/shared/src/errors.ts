import { z } from 'zod';

/**
 * The `data` of every API error, the same over tRPC (`error.data`) and REST (`body.data`).
 * REST bodies are `{ message, code, data }`; tRPC errors carry `message` and `data` too.
 */
export const apiErrorDataSchema = z.object({
  /** tRPC error code: BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, TOO_MANY_REQUESTS, … */
  code: z.string(),
  httpStatus: z.number().int(),
  /** Dotted path of the first invalid input field, when the error is about input. */
  field: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** Id of the request in the server log, on unexpected failures (500), to find what went wrong. */
  requestId: z.string().optional(),
});
export type ApiErrorData = z.infer<typeof apiErrorDataSchema>;

export const apiErrorBodySchema = z.object({
  message: z.string(),
  code: z.string(),
  data: apiErrorDataSchema.optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

/** Formats zod issues as "field: problem; other.field: problem", naming every field concerned. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): { path: string; message: string }[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
}
