import { describe, expect, it } from 'vitest';
import { sameOriginRedirectPath } from './redirect.js';

describe('sameOriginRedirectPath', () => {
  it('keeps paths of the app, with their query and fragment', () => {
    expect(sameOriginRedirectPath('subscribe')).toBe('/subscribe');
    expect(sameOriginRedirectPath('/settings?tab=account')).toBe('/settings?tab=account');
    expect(sameOriginRedirectPath(' /meetings#today ')).toBe('/meetings#today');
    expect(sameOriginRedirectPath('/a/../tools')).toBe('/tools');
  });

  it.each([
    '/.//evil.test',
    '/./..//evil.test',
    '//evil.test',
    '///evil.test',
    '/\\evil.test',
    '\\\\evil.test',
    '/\t/evil.test',
    '/\n/evil.test',
    'https://evil.test',
    '/%2e//evil.test',
    'http:evil.test',
  ])('sends %j to /', (target) => {
    const path = sameOriginRedirectPath(target);
    expect(path === '/' || (path.startsWith('/') && !path.startsWith('//')), `${JSON.stringify(target)} → ${path}`).toBe(true);
    // Wherever it lands, it is this origin.
    expect(new URL(path, 'https://mbox.example.org').origin).toBe('https://mbox.example.org');
  });

  it('sends the targets that resolve to another host to / itself', () => {
    for (const target of ['/.//evil.test', '//evil.test', '/\\evil.test', '/\t/evil.test', 'http:evil.test', 'https://evil.test', 'javascript:alert(1)']) {
      expect(sameOriginRedirectPath(target), JSON.stringify(target)).toBe('/');
    }
  });
});
