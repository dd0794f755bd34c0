import type { FastifyReply, FastifyRequest } from 'fastify';
import { MCP_PATH } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import { errorBody } from '../../http/error-body.js';
import type { FastifyApp } from '../../http/fastify-app.js';
import { contextRequest, createContext } from '../../trpc/context.js';
import type { AuthUser } from '../auth/service.js';

/**
 * The SDK and the tools load on the first MCP call, not at start: evaluating the SDK's schemas cost
 * every start-up about a tenth of a second (docs/performance.md, "Start-up"), on servers that may never
 * see an assistant.
 */
const importRuntime = () => Promise.all([import('./server.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]);
let runtime: ReturnType<typeof importRuntime> | undefined;
const loadRuntime = () => (runtime ??= importRuntime());

/** JSON-RPC's code for a request that is no valid request. */
const INVALID_REQUEST = -32600;

const TOKEN_HINT = 'send a personal access token (Settings › Access tokens) as Authorization: Bearer <token>';

/**
 * The caller of /mcp: a personal access token's owner, and nothing else. An extension token may only
 * capture (403); a session is for the web app and the REST API, not for assistants, which keep their
 * credential for months (403 too). On refusal the error is answered and null returned.
 */
async function mcpUser(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<AuthUser | null> {
  const ctx = await createContext(deps, contextRequest(deps, request, reply));
  const refuse = (status: number, message: string) => {
    // RFC 6750: a 401 names the scheme the client should authenticate with.
    if (status === 401) void reply.header('www-authenticate', 'Bearer realm="mbox"');
    void reply.status(status).send(errorBody(status, message));
    return null;
  };
  if (ctx.credentials !== 'bearer') return refuse(401, `Sign in required: ${TOKEN_HINT}`);
  if (!ctx.user) return refuse(ctx.authRefusal?.code === 'FORBIDDEN' ? 403 : 401, ctx.authRefusal?.message ?? `Sign in required: ${TOKEN_HINT}`);
  if (ctx.user.via === 'extension') return refuse(403, `Extension tokens may only send transcripts: ${TOKEN_HINT}`);
  if (ctx.user.via !== 'personal-token') return refuse(403, `The MCP endpoint does not take session tokens: ${TOKEN_HINT}`);
  return ctx.user;
}

/** The request as the SDK's web-standard transport reads it; the body is handed over already parsed. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return new Request(`${request.protocol}://${request.host}${request.url}`, { method: request.method, headers });
}

/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP (docs/mcp.md), stateless: every POST is
 * answered by an MCP server of its own acting as the token's owner, in one JSON answer (no session,
 * no stream to resume). GET (a stream of server-sent notifications) and DELETE (ending a session) have
 * nothing to serve without sessions: 405, as the specification allows.
 */
export function registerMcpRoute(app: FastifyApp, deps: AppDeps): void {
  app.post(MCP_PATH, async (request, reply) => {
    const user = await mcpUser(deps, request, reply);
    if (!user) return reply;
    // The SDK takes an empty batch for notifications only and answers 202: it is no message at all.
    if (Array.isArray(request.body) && request.body.length === 0) {
      return reply.status(400).send({ jsonrpc: '2.0', error: { code: INVALID_REQUEST, message: 'Invalid Request: an empty batch holds no message' }, id: null });
    }
    const [{ buildMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await loadRuntime();
    const server = buildMcpServer({ deps, user, log: request.log as AppDeps['log'], requestId: request.id });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    reply.raw.once('close', () => void server.close());
    return reply.send(await transport.handleRequest(webRequest(request), { parsedBody: request.body }));
  });

  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(405)
      .header('allow', 'POST')
      // -32000: the code the SDK's transport gives its own refusals (406, 415).
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless, send every message by POST' }, id: null });
  app.get(MCP_PATH, methodNotAllowed);
  app.delete(MCP_PATH, methodNotAllowed);
}
