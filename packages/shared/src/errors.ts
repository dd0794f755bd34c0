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

/**
 * The body of every REST error answer, as the OpenAPI document declares it (apps/server/src/openapi.ts
 * turns this schema into `components.schemas.ApiError`): `data` is always sent; `error` only by the
 * summarizer tools, which repeat the message there (product.md, Data / Errors).
 */
export const apiErrorResponseSchema = z
  .strictObject({
    message: z.string().describe('What went wrong, for people: names the field or the limit concerned'),
    code: z.string().describe('tRPC error code: BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, TOO_MANY_REQUESTS, …'),
    data: z
      .strictObject({
        code: z.string().describe('The same code as `code`'),
        httpStatus: z.number().int().min(400).max(599).describe('The HTTP status of the answer'),
        field: z.string().optional().describe('Dotted path of the first invalid input field, on input errors'),
        issues: z
          .array(z.strictObject({ path: z.string(), message: z.string() }))
          .optional()
          .describe('Every invalid input field with its problem, on input errors'),
        requestId: z.string().optional().describe('Id of the request in the server log, on unexpected failures (500)'),
      })
      .describe('The same for tRPC (`error.data`) and REST'),
    error: z.string().optional().describe('Only the summarizer tools (/v1/utils/…, /v1/public/utils/…): the message again'),
  })
  .describe('An error answer');
