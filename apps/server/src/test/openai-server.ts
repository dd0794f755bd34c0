import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROMPTS } from '@mbox/shared';
import type { Config } from '../config.js';

/** The parts of a chat-completion request the tests look at. */
export interface ChatCompletionBody {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  max_tokens?: number;
  temperature?: number;
  stream_options?: { include_usage?: boolean };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatCompletionBody;
  /** How many requests were in flight when this one arrived (itself included). */
  inFlight: number;
}

/** What the server does with one request; unset fields answer normally. */
export interface ScriptedReply {
  /** Answer this HTTP status with an OpenAI-style error body (e.g. 429, 500, 400). */
  status?: number;
  message?: string;
  /** Sent as Retry-After (seconds) with an error status. */
  retryAfterSeconds?: number;
  /** Wait before answering (before the headers, so a client timeout fires). */
  delayMs?: number;
  /** The answer's text; defaults to the responder's. */
  content?: string;
  /** Streaming only: send this many chunks, then stall without ending the stream. */
  stallAfterChunks?: number;
}

export type Responder = (body: ChatCompletionBody, index: number) => string;

export interface OpenAiTestServer {
  /** Base URL for the SDK (ends with /v1). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Most requests seen in flight at once. */
  readonly maxInFlight: number;
  /** Requests whose connection is still open. */
  readonly inFlight: number;
  /** The next requests get these replies, in order; later ones answer normally. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Replaces the default answer (the default says which request it answers). */
  setResponder(responder: Responder): void;
  reset(): void;
  close(): Promise<void>;
}

/** A server's settings for this test LLM: a basic and an advanced model, no retries, the given timeout. */
export function testLlmConfig(llm: OpenAiTestServer, timeoutMs: number): Partial<Config> {
  return {
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: llm.url,
    OPENAI_MODEL_BASIC: 'model-basic',
    OPENAI_MODEL_ADVANCED: 'model-advanced',
    LLM_MAX_RETRIES: 0,
    LLM_TIMEOUT_MS: timeoutMs,
  };
}

const defaultResponder: Responder = (body, index) => `Answer ${index + 1} from ${body.model}.`;

/**
 * An OpenAI-compatible HTTP server on 127.0.0.1 for tests: POST /v1/chat/completions with and
 * without `stream: true` (SSE), errors, 429s, delays and stalls on demand; every request recorded.
 */
/** Tokens as the test server reports them: one per four characters of the messages, and of the answer. */
function usageOf(body: ChatCompletionBody, content: string) {
  const prompt = Math.ceil(body.messages.reduce((n, m) => n + m.content.length, 0) / 4);
  const answer = Math.ceil(content.length / 4);
  return { prompt_tokens: prompt, completion_tokens: answer, total_tokens: prompt + answer };
}

/** A whole (not streamed) chat completion answering `content`. */
function completion(body: ChatCompletionBody, content: string, id: string) {
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
    usage: usageOf(body, content),
  };
}

/** The Action Items request every ended meeting makes (docs/action-items.md), told by its prompt's first line. */
export function isActionItemsRequest(body: ChatCompletionBody): boolean {
  const first = PROMPTS.action.instructions.split('\n')[0]!;
  return body.messages.some((m) => m.content.includes(first));
}

/** For `aside`: the Action Items requests answered with "none", the rest left to the test. */
export function actionItemsAside(body: ChatCompletionBody): string | undefined {
  return isActionItemsRequest(body) ? 'No action items were assigned in this meeting.' : undefined;
}

export interface OpenAiTestServerOptions {
  responder?: Responder;
  latencyMs?: number;
  /**
   * Requests of other work that shares the LLM, answered at once with the text this returns and kept
   * out of `requests` and of the scripted replies (a recap test scripts the recap's own requests).
   */
  aside?: (body: ChatCompletionBody) => string | undefined;
}

export async function startOpenAiTestServer(options: OpenAiTestServerOptions = {}): Promise<OpenAiTestServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  let responder = options.responder ?? defaultResponder;
  let inFlight = 0;
  let maxInFlight = 0;
  const open = new Map<ServerResponse, () => void>();

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        sendJson(res, 404, { error: { message: `No route ${req.method} ${path}`, type: 'invalid_request_error' } });
        return;
      }
      let body: ChatCompletionBody;
      try {
        body = JSON.parse(raw) as ChatCompletionBody;
      } catch {
        sendJson(res, 400, { error: { message: 'Body is not JSON', type: 'invalid_request_error' } });
        return;
      }
      const aside = options.aside?.(body);
      if (aside !== undefined) {
        sendJson(res, 200, completion(body, aside, 'chatcmpl-aside'));
        return;
      }
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const index = requests.length;
      requests.push({ method: req.method, path, headers: req.headers, body, inFlight });
      const reply = queue.shift() ?? {};
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        inFlight--;
        open.delete(res);
      };
      open.set(res, finish);
      res.on('close', finish);
      const timers: NodeJS.Timeout[] = [];
      res.on('close', () => timers.forEach(clearTimeout));
      const later = (ms: number, fn: () => void) => timers.push(setTimeout(fn, ms));

      later((reply.delayMs ?? 0) + (options.latencyMs ?? 0), () => {
        if (reply.status && reply.status >= 400) {
          const headers: Record<string, string> = {};
          if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
          sendJson(res, reply.status, { error: { message: reply.message ?? `Scripted error ${reply.status}`, type: 'server_error', code: null } }, headers);
          return;
        }
        const content = reply.content ?? responder(body, index);
        const id = `chatcmpl-test-${index + 1}`;
        const created = Math.floor(Date.now() / 1000);
        const usage = usageOf(body, content);
        if (!body.stream) {
          sendJson(res, 200, completion(body, content, id));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        const pieces = content.match(/\S+\s*|\s+/g) ?? [];
        const chunk = (delta: Record<string, string>, finish: string | null) =>
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.write(chunk({ role: 'assistant', content: '' }, null));
        const limit = reply.stallAfterChunks ?? Number.POSITIVE_INFINITY;
        pieces.forEach((piece, i) => {
          if (i >= limit) return;
          later(2 * (i + 1), () => res.write(chunk({ content: piece }, null)));
        });
        if (pieces.length > limit) return; // stall: keep the connection open, send nothing more
        later(2 * (pieces.length + 1), () => {
          res.write(chunk({}, 'stop'));
          if (body.stream_options?.include_usage) {
            res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`);
          }
          res.end('data: [DONE]\n\n');
        });
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    get inFlight() {
      return inFlight;
    },
    enqueue: (...replies) => void queue.push(...replies),
    setResponder: (r) => void (responder = r),
    reset: () => {
      // A response an earlier test left open (a stalled stream, a timed-out call) is not this test's.
      for (const [res, finish] of open) {
        finish();
        res.destroy();
      }
      requests.length = 0;
      queue.length = 0;
      maxInFlight = 0;
      responder = options.responder ?? defaultResponder;
    },
    close: async () => {
      for (const res of open.keys()) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
