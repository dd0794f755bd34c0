import type { FastifyError } from 'fastify';
import type { FastifyApp } from './fastify-app.js';

/**
 * Deepest nesting of objects and arrays a body may have; real calls use 3. Deeper bodies overflow the
 * stack of recursive code downstream (JSON.stringify in the tRPC adapter failed at 5,000 levels).
 */
const MAX_JSON_DEPTH = 32;

/** Nesting depth of a JSON text, found without recursion (strings are skipped). */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return deepest;
}

function badBody(message: string): FastifyError {
  const error = new Error(message) as FastifyError;
  error.statusCode = 400;
  return error;
}

/**
 * The JSON body parser: an empty body is no body (clients send `Content-Type: application/json` on
 * every call, also on GET and DELETE), a body nested deeper than MAX_JSON_DEPTH or not JSON is a 400.
 */
export function registerJsonBodyParser(app: FastifyApp): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (!text.trim()) return done(null, undefined);
    if (jsonDepth(text) > MAX_JSON_DEPTH) return done(badBody(`Body is nested too deeply: at most ${MAX_JSON_DEPTH} levels`), undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badBody('Body is not valid JSON'), undefined);
    }
  });
}
