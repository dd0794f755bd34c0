import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, lazyChildLogger, RequestLogController } from './logger.js';

describe('request lines', () => {
  it('are one line per request at info, with the path as it came, its status and its time', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = Fastify({ loggerInstance: log, logController: new RequestLogController() });
    app.get('/v1/meeting-list', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/v1/meeting-list?token=secret-in-query' });
    await app.close();

    const requestLines = lines.filter((line) => 'req' in line || 'res' in line);
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', path: '/v1/meeting-list' }, res: { statusCode: 200 } });
    expect(typeof requestLines[0]!.responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret-in-query');
  });

  it('of a quiet route are debug when answered and info when refused', async () => {
    const lines: { level: number; msg: string; res?: { statusCode: number } }[] = [];
    const log = createLogger({ LOG_LEVEL: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
    const app = Fastify({ loggerInstance: log, logController: new RequestLogController() });
    app.post('/v1/transcript/lines', { config: { quietRequestLine: true } }, async (request, reply) =>
      (request.body as { ok?: boolean } | undefined)?.ok ? { accepted: 1 } : reply.status(400).send({ message: 'bad' }),
    );
    await app.inject({ method: 'POST', url: '/v1/transcript/lines', payload: { ok: true } });
    await app.inject({ method: 'POST', url: '/v1/transcript/lines', payload: { ok: false } });
    await app.close();

    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed.map((line) => [line.res?.statusCode, line.level])).toEqual([
      [200, 20],
      [400, 30],
    ]);
  });

  it("come from a request logger made a pino child only when a line is written at an enabled level", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const child = vi.spyOn(log, 'child');
    const app = Fastify({ loggerInstance: log, logController: new RequestLogController(), childLoggerFactory: lazyChildLogger });
    app.post('/v1/transcript/lines', { config: { quietRequestLine: true } }, async (request) => {
      request.log.debug('not written at info');
      return { accepted: 1 };
    });
    app.get('/v1/meeting-list', async (request) => {
      request.log.warn({ token: 'secret' }, 'written');
      return [];
    });
    // Fastify makes children of its own when it starts; a request's are what count.
    await app.ready();
    child.mockClear();
    await app.inject({ method: 'POST', url: '/v1/transcript/lines', payload: {} });
    expect(child).not.toHaveBeenCalled();
    await app.inject({ method: 'GET', url: '/v1/meeting-list' });
    await app.close();
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((line) => [line.msg, typeof line.reqId])).toEqual([
      ['written', 'string'],
      ['request completed', 'string'],
    ]);
    expect(lines[0]).toMatchObject({ token: '[redacted]' });
  });

  it("follow a route's own log level", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = Fastify({ loggerInstance: log, logController: new RequestLogController(), childLoggerFactory: lazyChildLogger });
    app.get('/v1/verbose', { logLevel: 'debug' }, async (request) => {
      request.log.debug('written at the route level');
      return {};
    });
    await app.inject({ method: 'GET', url: '/v1/verbose' });
    await app.close();
    expect(lines.map((line) => line.msg)).toContain('written at the route level');
  });
});
