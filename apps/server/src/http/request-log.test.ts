import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, RequestLogController } from './logger.js';

describe('request lines', () => {
  it('are one line per request at info, with the path as it came, its status and its time', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = Fastify({ loggerInstance: log, logController: new RequestLogController() });
    app.get('/v1/meeting-list', async (request) => {
      // As the REST facade does under its prefix.
      request.raw.url = '/meeting-list';
      return { ok: true };
    });
    await app.inject({ method: 'GET', url: '/v1/meeting-list?token=secret-in-query' });
    await app.close();

    const requestLines = lines.filter((line) => 'req' in line || 'res' in line);
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', path: '/v1/meeting-list' }, res: { statusCode: 200 } });
    expect(typeof requestLines[0]!.responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret-in-query');
  });
});
