import { z } from 'zod';

/**
 * Imported first by pages under a CSP without 'unsafe-eval' (the web app, docs/security.md): zod
 * otherwise probes `new Function` when it builds its first object schema, to compile faster
 * validators, and the browser reports the probe as a CSP violation. Validation works the same.
 */
z.config({ jitless: true });
