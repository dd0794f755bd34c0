import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** The server's Fastify instance, with its pino logger, as the http/ modules register on it. */
export type FastifyApp = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;
