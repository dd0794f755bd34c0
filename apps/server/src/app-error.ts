import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { DAILY_LIMIT_REACHED } from '@mbox/shared';

/** What the OpenAPI document says of a status (`components.responses`, openapi.ts). */
interface DocumentedStatus {
  /** Name under `components.responses`. */
  name: string;
  description: string;
  /** A message the server sends with this status. */
  example: string;
}

export interface ErrorKind {
  status: number;
  /** The code clients read: `code` and `data.code` of the error body. */
  code: string;
  /** tRPC's code for it (the same name), or null for a refusal made before any procedure runs. */
  trpc: TRPC_ERROR_CODE_KEY | null;
  /** What the client is told when the throw site gives no message; a 500 never says more than this. */
  message: string;
  /** Set on the one kind of each status the OpenAPI document describes. */
  document?: DocumentedStatus;
}

/**
 * The one table of the server's errors: each code with its HTTP status, the code clients read and the
 * client message. Services, jobs and plain routes throw AppError with one of these codes; tRPC
 * (trpc/trpc.ts), the REST answers (http/error-body.ts) and the SSE streams translate it from here, and
 * the OpenAPI document describes each status from here.
 */
export const ERROR_KINDS = {
  BAD_REQUEST: {
    status: 400,
    code: 'BAD_REQUEST', trpc: 'BAD_REQUEST',
    message: 'Bad request',
    document: {
      name: 'BadRequest',
      description: 'Bad request: the body is not a JSON object, or a parameter or field is invalid (`data.field` and `data.issues` name it)',
      example: 'Invalid input: text: Too big: expected string to have <=200000 characters',
    },
  },
  UNAUTHORIZED: {
    status: 401,
    code: 'UNAUTHORIZED', trpc: 'UNAUTHORIZED',
    message: 'Sign in required: missing or invalid token',
    document: {
      name: 'Unauthorized',
      description: 'Sign-in required: the token is missing, invalid, expired or revoked',
      example: 'Sign in required: missing or invalid token',
    },
  },
  FORBIDDEN: {
    status: 403,
    code: 'FORBIDDEN', trpc: 'FORBIDDEN',
    message: 'Forbidden',
    document: {
      name: 'Forbidden',
      description:
        'Forbidden: a premium call of a non-premium account, a call the token may not make, a limit of the account, or a state-changing call from a page of another origin',
      example: 'This is a premium feature: upgrade to premium to use it',
    },
  },
  PREMIUM_REQUIRED: { status: 403, code: 'FORBIDDEN', trpc: 'FORBIDDEN', message: 'This is a premium feature: upgrade to premium to use it' },
  NOT_FOUND: {
    status: 404,
    code: 'NOT_FOUND', trpc: 'NOT_FOUND',
    message: 'Not found',
    document: { name: 'NotFound', description: "Not found: nothing of this id, or it is another user's", example: 'Meeting not found' },
  },
  METHOD_NOT_SUPPORTED: { status: 405, code: 'METHOD_NOT_SUPPORTED', trpc: 'METHOD_NOT_SUPPORTED', message: 'Method not supported' },
  CONFLICT: {
    status: 409,
    code: 'CONFLICT', trpc: 'CONFLICT',
    message: 'Conflict',
    document: {
      name: 'Conflict',
      description: 'Conflict: the state changed or the action was already taken',
      example: 'You have already accepted a referral',
    },
  },
  PRECONDITION_FAILED: {
    status: 412,
    code: 'PRECONDITION_FAILED', trpc: 'PRECONDITION_FAILED',
    message: 'Precondition failed',
    document: {
      name: 'PreconditionFailed',
      description: 'Precondition failed: the server is not configured for this (e.g. no AI model), or the data does not allow it',
      example: 'This message cannot be decrypted with the server key',
    },
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE', trpc: 'PAYLOAD_TOO_LARGE',
    message: 'Payload too large',
    document: {
      name: 'PayloadTooLarge',
      description: 'The body is larger than the server accepts, or (caption lines) would take the meeting past its size bound',
      example: 'Body too large: at most 2097152 bytes',
    },
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE', trpc: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported media type',
    document: {
      name: 'UnsupportedMediaType',
      description: 'Unsupported media type: the body must be JSON, or the linked page is not HTML',
      example: 'Unsupported Media Type: application/x-www-form-urlencoded',
    },
  },
  MISDIRECTED_REQUEST: {
    status: 421,
    code: 'MISDIRECTED_REQUEST', trpc: null,
    message: 'Misdirected request',
    document: {
      name: 'MisdirectedRequest',
      description: 'Misdirected request: the Host is not a name of this server (PUBLIC_URL, ALLOWED_HOSTS or loopback)',
      example: "This server does not answer for host 'evil.example': only its public address and loopback names (see ALLOWED_HOSTS)",
    },
  },
  UNPROCESSABLE_CONTENT: {
    status: 422,
    code: 'UNPROCESSABLE_CONTENT', trpc: 'UNPROCESSABLE_CONTENT',
    message: 'Unprocessable content',
    document: {
      name: 'UnprocessableContent',
      description: 'The content cannot be summarised: too little text, no captions, or too large',
      example: 'The captions of this video are empty',
    },
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    code: 'TOO_MANY_REQUESTS', trpc: 'TOO_MANY_REQUESTS',
    message: 'Too many requests',
    document: {
      name: 'TooManyRequests',
      description: 'Too many requests: a rate limit of the server or the daily limit of the call is reached',
      example: DAILY_LIMIT_REACHED,
    },
  },
  /** Clients read every 429 as the account's daily limit (product.md, Errors). */
  DAILY_LIMIT_REACHED: { status: 429, code: 'TOO_MANY_REQUESTS', trpc: 'TOO_MANY_REQUESTS', message: DAILY_LIMIT_REACHED },
  INTERNAL_SERVER_ERROR: {
    status: 500,
    code: 'INTERNAL_SERVER_ERROR', trpc: 'INTERNAL_SERVER_ERROR',
    message: 'Internal server error',
    document: {
      name: 'InternalServerError',
      description: 'Unexpected failure: `data.requestId` finds it in the server log',
      example: 'Internal server error',
    },
  },
  BAD_GATEWAY: {
    status: 502,
    code: 'BAD_GATEWAY', trpc: 'BAD_GATEWAY',
    message: 'Bad gateway',
    document: {
      name: 'BadGateway',
      description: 'A service this call needs (the AI model, the linked page, YouTube) failed or answered nothing usable',
      example: 'The page could not be reached',
    },
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    code: 'SERVICE_UNAVAILABLE', trpc: 'SERVICE_UNAVAILABLE',
    message: 'Service unavailable',
    document: {
      name: 'ServiceUnavailable',
      description: 'A service this call needs (the AI model, YouTube) is busy or down: try again later',
      example: 'The AI service is busy, try again in a moment',
    },
  },
  GATEWAY_TIMEOUT: {
    status: 504,
    code: 'GATEWAY_TIMEOUT', trpc: 'GATEWAY_TIMEOUT',
    message: 'Gateway timeout',
    document: {
      name: 'GatewayTimeout',
      description: 'A service this call needs (the AI model, the linked page, YouTube) took too long to answer',
      example: 'The AI service took too long to answer, try again later',
    },
  },
} as const satisfies Record<string, ErrorKind>;

type Kinds = typeof ERROR_KINDS;
/** The codes an AppError may carry: those a procedure can answer. */
export type AppErrorCode = { [C in keyof Kinds]: Kinds[C]['trpc'] extends null ? never : C }[keyof Kinds];

/** An invalid input field, named by its dotted path. */
export interface InputIssue {
  path: string;
  message: string;
}

/**
 * The error services, jobs and plain routes throw: a code of ERROR_KINDS and the message for the client
 * (the table's when none is given). `issues` name the invalid input fields; such an error is answered
 * as an input error (`Invalid input: field: problem`, with `data.field` and `data.issues`).
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly issues: InputIssue[] | undefined;

  constructor(
    readonly code: AppErrorCode,
    message?: string,
    options: { cause?: unknown; issues?: InputIssue[] } = {},
  ) {
    super(message ?? ERROR_KINDS[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    this.issues = options.issues;
  }

  get status(): number {
    return ERROR_KINDS[this.code].status;
  }

  /** tRPC's code for it, which clients read. */
  get trpcCode(): TRPC_ERROR_CODE_KEY {
    return ERROR_KINDS[this.code].trpc;
  }
}

/** A 400 naming one invalid field, answered like any input error: `Invalid input: field: message`. */
export function invalidField(field: string, message: string): AppError {
  return new AppError('BAD_REQUEST', message, { issues: [{ path: field, message }] });
}

/** The general kind of each status: the one named by its client code (BAD_REQUEST for 400, not a narrower kind). */
const kindsByStatus = new Map<number, ErrorKind>(
  Object.entries(ERROR_KINDS as Record<string, ErrorKind>)
    .filter(([code, kind]) => code === kind.code)
    .map(([, kind]) => [kind.status, kind]),
);

/** The general kind of an HTTP status, or undefined for a status the API never answers. */
export function kindOfStatus(status: number): ErrorKind | undefined {
  return kindsByStatus.get(status);
}
