import { generateOpenApiDocument, type OpenAPIObject, type OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { ACCOUNT_EXPORT_ACCOUNT_FILE, apiErrorResponseSchema, EXPORT_FORMAT_LABELS, EXPORT_FORMATS, meetingExportSchema } from '@mbox/shared';
import { kindOfStatus } from './app-error.js';
import { EXPORT_CONTENT_TYPES } from './modules/export/service.js';
import { appRouter } from './trpc/app-router.js';

export const API_VERSION = '0.1.0';

/** Name of the bearer scheme in `components.securitySchemes`, required by every protected call. */
export const BEARER_SCHEME = 'bearer';

const AI_FAILURES = [412, 502, 503, 504];
const PAGE_FAILURES = [415, 422, 502, 503, 504];

/**
 * Statuses of calls that reach a service outside this server (summary/ai-errors.ts,
 * tools/fetch-page.ts, tools/youtube.ts), that refuse a repeated action, or that check a credential
 * of their own, by procedure. The fuzz suite (test/fuzz.int.test.ts) fails on any status a call
 * answers but the document does not declare, so a new call of this kind shows up there.
 */
const extraStatuses: Record<string, number[]> = {
  'summary.generate': AI_FAILURES,
  'ask.all': AI_FAILURES,
  'summary.regenerate': AI_FAILURES,
  'summary.regenerateWithSettings': AI_FAILURES,
  'summary.translate': AI_FAILURES,
  'message.aiFix': [...AI_FAILURES, 409],
  'tools.summary': [...AI_FAILURES, ...PAGE_FAILURES],
  'tools.youtube': [...AI_FAILURES, ...PAGE_FAILURES],
  'tools.publicSummary': [...AI_FAILURES, ...PAGE_FAILURES],
  'tools.publicYoutube': [...AI_FAILURES, ...PAGE_FAILURES],
  'tools.youtubeInfo': PAGE_FAILURES,
  'referral.accept': [409],
  // An encrypted meeting cannot be shared.
  'share.create': [412],
  // Public, but its credential is the refresh token (body or cookie) instead of the bearer.
  'auth.refresh': [401],
  // A paid subscription that cannot be cancelled first: payments no longer configured (412), Stripe down (503).
  'account.delete': [412, 503],
};

interface Operation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

interface Procedure {
  /** Dotted tRPC path, e.g. `meeting.get`. */
  name: string;
  type: 'query' | 'mutation' | 'subscription';
}

/** `get /meeting/{id}` → its procedure, read from the routers' `.meta({ openapi })`. */
function proceduresByOperation(): Map<string, Procedure> {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: Procedure['type']; meta?: OpenApiMeta } }>;
  const byOperation = new Map<string, Procedure>();
  for (const [name, procedure] of Object.entries(procedures)) {
    const openapi = procedure._def.meta?.openapi;
    if (openapi) byOperation.set(`${openapi.method.toLowerCase()} ${openapi.path}`, { name, type: procedure._def.type });
  }
  return byOperation;
}

/** The error statuses a call can answer, beyond those trpc-to-openapi lists from `errorResponses`. */
function errorStatusesOf(method: string, operation: Operation, procedure: Procedure | undefined): number[] {
  const statuses = new Set(Object.keys(operation.responses).map(Number).filter((status) => status >= 400));
  // An invalid parameter or field, and ids that do not exist.
  if (operation.parameters?.length || operation.requestBody !== undefined) [400, 404].forEach((s) => statuses.add(s));
  // Fastify reads the body of every write call, whether the call takes one or not: not JSON, not an
  // object, too deep (400), too large (413), of another type (415).
  if (method !== 'get') [400, 413, 415].forEach((s) => statuses.add(s));
  if (operation.security?.length) statuses.add(401);
  // Any call made with an extension token, public ones included (only the capture calls take one), a
  // mutation made with a read-scoped personal access token, and a state-changing call (a mutation,
  // also behind GET) from a browser page of a foreign origin.
  statuses.add(403);
  // Any request whose Host is not a name of this server (http/request-guards.ts).
  statuses.add(421);
  // Rate limits may apply to any call (sign-in, token minting, referrals, summarizers, deployments' own).
  statuses.add(429);
  statuses.add(500);
  for (const status of extraStatuses[procedure?.name ?? ''] ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

/** What the document says of an error status: ERROR_KINDS' description and example of it. */
function documentedStatus(status: number) {
  const kind = kindOfStatus(status);
  return kind?.document
    ? { ...kind.document, code: kind.code }
    : { name: `Error${status}`, code: 'ERROR', description: `HTTP ${status}`, example: `HTTP ${status}` };
}

function errorResponse(status: number) {
  const info = documentedStatus(status);
  return {
    description: info.description,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ApiError' },
        example: { message: info.example, code: info.code, data: { code: info.code, httpStatus: status } },
      },
    },
  };
}

/**
 * `GET /meeting/{id}/export`: a Fastify route (modules/export/route.ts), not a procedure (a PDF streams
 * out as it is written), so trpc-to-openapi does not see it; described here like the procedures.
 */
type OperationObject = NonNullable<NonNullable<OpenAPIObject['paths']>[string]['get']>;

function exportOperation(): OperationObject {
  const { $schema: _dialect, ...jsonExport } = z.toJSONSchema(meetingExportSchema, { io: 'output' });
  const content = Object.fromEntries(
    EXPORT_FORMATS.map((format) => [
      EXPORT_CONTENT_TYPES[format].split(';', 1)[0]!,
      format === 'json' ? { schema: jsonExport } : { schema: { type: 'string', ...(format === 'pdf' ? { format: 'binary' } : {}) } },
    ]),
  );
  return {
    operationId: 'meeting-export',
    summary: 'The meeting as a file to download: Markdown, plain text, SRT or WebVTT subtitles, JSON or PDF',
    description:
      'Answers the file as an attachment named `<title>-<yyyy-mm-dd>.<ext>` (`filename*` carries a non-ASCII title). ' +
      'The web app downloads it with its session cookie; scripts send the bearer token. Extension tokens are refused (403). ' +
      'JSON holds `{ meeting, summaries }` exactly as `GET /meeting/{id}` and `GET /summary-list/{id}` answer them. ' +
      'At most two PDFs of one account are written at once (429 beyond). See docs/export.md.',
    tags: ['meetings'],
    security: [{ [BEARER_SCHEME]: [] }],
    parameters: [
      { in: 'path', name: 'id', required: true, schema: { type: 'string', minLength: 1, maxLength: 100 } },
      {
        in: 'query',
        name: 'format',
        required: true,
        description: EXPORT_FORMATS.map((format) => `\`${format}\`: ${EXPORT_FORMAT_LABELS[format]}`).join(', '),
        schema: { type: 'string', enum: [...EXPORT_FORMATS] },
      },
    ],
    responses: {
      200: {
        description: 'The file, with `Content-Disposition: attachment`',
        headers: {
          'Content-Disposition': {
            description: 'attachment; filename="<title>-<yyyy-mm-dd>.<ext>"; filename*=UTF-8\'\'<the same in UTF-8>',
            schema: { type: 'string' },
          },
        },
        content,
      },
    },
  };
}

/** `GET /account/export`: a Fastify route (modules/account/route.ts), a zip streamed as it is written. */
function accountExportOperation(): OperationObject {
  return {
    operationId: 'account-export',
    summary: 'All data of the account as a zip: account.json, then each meeting as JSON and Markdown',
    description:
      `\`${ACCOUNT_EXPORT_ACCOUNT_FILE}\` holds the profile, the settings (as \`GET /user-settings\` answers them), subscriptions and ` +
      'webhooks (without their secrets); `meetings/<yyyy-mm-dd>-<title>-<id>.json` holds a meeting with its lines (marks, comments, ' +
      'cleanups) and summaries (with translations) as `GET /meeting/{id}/export?format=json` writes it, and the `.md` beside it its ' +
      'Markdown export. The web app downloads it with its session cookie; scripts send the bearer token. Extension tokens are ' +
      'refused (403). One export of an account at a time (429 beyond). See docs/account-and-plans.md.',
    tags: ['account'],
    security: [{ [BEARER_SCHEME]: [] }],
    responses: {
      200: {
        description: 'The zip, with `Content-Disposition: attachment; filename="mbox-data-<yyyy-mm-dd>.zip"`',
        headers: { 'Content-Disposition': { description: 'attachment; filename="mbox-data-<yyyy-mm-dd>.zip"', schema: { type: 'string' } } },
        content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
      },
    },
  };
}

/** `GET /recaps/{recapId}/email.html`: a Fastify route (modules/recap/route.ts), the e-mail as a page. */
function recapEmailOperation(): OperationObject {
  return {
    operationId: 'recap-email',
    summary: "A recap e-mail's HTML as a page, with the e-mail's own style policy (the Outbox preview frame)",
    description:
      "Served with a Content-Security-Policy of its own: the e-mail's inline styles and https images, no script (`sandbox`), " +
      'framed only by this server. 404 for another account\'s recap and for a recap not written yet. See docs/recaps.md.',
    tags: ['recaps'],
    security: [{ [BEARER_SCHEME]: [] }],
    parameters: [{ in: 'path', name: 'recapId', required: true, schema: { type: 'string', minLength: 1, maxLength: 100 } }],
    responses: {
      200: { description: 'The e-mail', content: { 'text/html': { schema: { type: 'string' } } } },
    },
  };
}

/**
 * The OpenAPI document of the REST facade (`/v1/openapi.json`, `/docs`): trpc-to-openapi's document
 * from the routers' `.meta({ openapi })`, made true to what the server sends. Every call states its
 * security (the bearer scheme, or none for public calls), and every error status it can answer with
 * the one error body of the API (`ApiError`, from apiErrorResponseSchema in packages/shared).
 */
export function openApiDocument() {
  const document = generateOpenApiDocument(appRouter, {
    title: 'Mbox API',
    description:
      'REST facade of the Mbox server. Every call takes `Authorization: Bearer <token>` unless its security is empty (public). ' +
      'Every error answer has the body `ApiError`: `{ message, code, data: { code, httpStatus, field?, issues?, requestId? } }`.',
    version: API_VERSION,
    baseUrl: '/v1',
    defs: { ApiError: apiErrorResponseSchema },
    securitySchemes: {
      [BEARER_SCHEME]: {
        type: 'http',
        scheme: 'bearer',
        description:
          'A personal access token (POST /access-tokens, or Settings › Access tokens in the web app; a read-scoped one is refused with 403 on calls that change data), ' +
          'a session token (POST /auth/login) or an extension token (POST /auth/extension-token; the capture calls only)',
      },
    },
  });

  document.paths = {
    ...document.paths,
    '/meeting/{id}/export': { get: exportOperation() },
    '/account/export': { get: accountExportOperation() },
    '/recaps/{recapId}/email.html': { get: recapEmailOperation() },
  };

  const procedures = proceduresByOperation();
  const usedStatuses = new Set<number>();
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(methods ?? {})) {
      if (!value || typeof value !== 'object' || !('responses' in value)) continue;
      const operation = value as Operation;
      // Public calls say so: an empty list, not an absent one (which would mean "whatever the default is").
      operation.security ??= [];
      const success = Object.entries(operation.responses).filter(([status]) => Number(status) < 400);
      const errors = errorStatusesOf(method, operation, procedures.get(`${method} ${path}`)).map((status) => {
        usedStatuses.add(status);
        const name = documentedStatus(status).name;
        return [String(status), { $ref: `#/components/responses/${name}` }] as const;
      });
      operation.responses = Object.fromEntries([...success, ...errors]);
    }
  }

  const responses = Object.fromEntries(
    [...usedStatuses].sort((a, b) => a - b).map((status) => [documentedStatus(status).name, errorResponse(status)]),
  );
  // trpc-to-openapi's own error schemas (`error.BAD_REQUEST`, …) lack `data`; ApiError replaces them.
  const schemas = Object.fromEntries(
    Object.entries(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith('error.')),
  );
  document.components = { ...document.components, schemas, responses };
  return document;
}
