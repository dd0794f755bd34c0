import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { repoRoot } from '../db/paths.js';
import { errorBody } from './error-body.js';
import type { FastifyApp } from './fastify-app.js';

/** Where `npm run build` leaves the extension's store package (apps/extension/build.ts). */
const EXTENSION_ZIP_DIR = join(repoRoot, 'apps/extension/dist-zip');
const EXTENSION_ZIP_NAME = /^mbox-extension-[\w.-]+\.zip$/;

/** The extension package for developer-mode installs (web page /extension), until it is in the store. */
export function registerExtensionZip(app: FastifyApp, extensionZipDir = EXTENSION_ZIP_DIR): void {
  app.get('/extension/mbox-extension.zip', async (_request, reply) => {
    const name = (await readdir(extensionZipDir).catch(() => [])).find((file) => EXTENSION_ZIP_NAME.test(file));
    if (!name) {
      return reply.status(404).send(errorBody(404, 'The extension package is not built on this server: run npm run build'));
    }
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-cache')
      .send(await readFile(join(extensionZipDir, name)));
  });
}

/**
 * The built web app (`apps/web/dist` unless given; null serves none) with its SPA fallback, and the
 * answer to every unknown route: the app shell for a page's GET, a 404 in the API's shape otherwise.
 */
export async function registerWebApp(app: FastifyApp, webDistOption: string | null | undefined): Promise<void> {
  const webDist = webDistOption === undefined ? join(repoRoot, 'apps/web/dist') : webDistOption;
  const serveWeb = webDist !== null && existsSync(join(webDist, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: ['index.html'],
      // Vite names assets by content hash: they never change. The shell is revalidated on every load.
      setHeaders: (reply, path) =>
        void reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
  }

  app.setNotFoundHandler((request, reply) => {
    // Also /.well-known: MCP clients look for OAuth metadata there, and must read "none" rather than the app shell.
    const isApi = /^\/(v1|trpc|\.well-known)(\/|$)/.test(request.url);
    if (serveWeb && request.method === 'GET' && !isApi) {
      // SPA fallback: client-side routes load the app shell.
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(errorBody(404, `No route for ${request.method} ${request.url.split('?')[0]}`));
  });
}
