import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import type { AppDeps } from '../../deps.js';
import { isAdmin } from './service.js';

const deps = (env: Record<string, string>) => ({ config: loadConfig({ NODE_ENV: 'test', ...env }) }) as AppDeps;
const firebase = { AUTH_MODE: 'firebase', FIREBASE_WEB_CONFIG: JSON.stringify({ apiKey: 'k', authDomain: 'a.example.com', projectId: 'p' }) };

describe('who administers the deployment', () => {
  it('is every local account in local sign-in mode', () => {
    expect(isAdmin(deps({}), { email: 'anyone@example.com' })).toBe(true);
  });

  it('is the ADMIN_EMAILS accounts otherwise, whatever their case', () => {
    const d = deps({ ...firebase, ADMIN_EMAILS: 'Ops@Example.com, lead@example.com' });
    expect(isAdmin(d, { email: 'ops@example.com' })).toBe(true);
    expect(isAdmin(d, { email: 'LEAD@example.com' })).toBe(true);
    expect(isAdmin(d, { email: 'user@example.com' })).toBe(false);
    expect(isAdmin(deps(firebase), { email: 'ops@example.com' })).toBe(false);
  });

  it('refuses an ADMIN_EMAILS entry that is not an address', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', ADMIN_EMAILS: 'ops' })).toThrow(/ADMIN_EMAILS: 'ops' is not an e-mail address/);
  });
});
