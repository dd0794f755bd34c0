import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const trustProxy = (value: string | undefined) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default, nor when set to false or 0', () => {
    for (const value of [undefined, '', 'false', 'FALSE', '0']) expect(trustProxy(value), String(value)).toBe(false);
  });

  it('takes a hop count', () => {
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy('2')).toBe(2);
  });

  it('takes proxy addresses, networks and proxy-addr range names', () => {
    expect(trustProxy('127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback,uniquelocal')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
      'uniquelocal',
    ]);
  });

  it('refuses true, which would trust every hop, naming what to give instead', () => {
    expect(() => trustProxy('true')).toThrow(/TRUST_PROXY: 'true' would trust every X-Forwarded-For hop.*number of reverse proxies/);
  });

  it('refuses entries that are no address, network or count', () => {
    expect(() => trustProxy('10.0.0.0/33')).toThrow(/'10\.0\.0\.0\/33' is not a hop count, an IP address, a CIDR network/);
    expect(() => trustProxy('proxy.internal')).toThrow(/'proxy\.internal' is not/);
  });
});

describe('SUPPORT_URL and FEEDBACK_URL', () => {
  it('are unset by default and take https:, http: and mailto: addresses', () => {
    const defaults = loadConfig({});
    expect([defaults.SUPPORT_URL, defaults.FEEDBACK_URL]).toEqual([undefined, undefined]);
    const config = loadConfig({ SUPPORT_URL: 'mailto:help@example.org', FEEDBACK_URL: 'https://forms.example.org/mbox' });
    expect([config.SUPPORT_URL, config.FEEDBACK_URL]).toEqual(['mailto:help@example.org', 'https://forms.example.org/mbox']);
  });

  it('refuse anything a person could not be sent to, naming the setting', () => {
    expect(() => loadConfig({ SUPPORT_URL: 'javascript:alert(1)' })).toThrow(/SUPPORT_URL must be an http\(s\): or mailto: URL/);
    expect(() => loadConfig({ FEEDBACK_URL: 'forms.example.org' })).toThrow(/FEEDBACK_URL must be an http\(s\): or mailto: URL/);
  });
});

describe('meeting size bounds', () => {
  it('default to 50,000 lines and 20 MiB of text', () => {
    expect(loadConfig({})).toMatchObject({ MAX_LINES_PER_MEETING: 50_000, MAX_MEETING_TEXT_BYTES: 20 * 1024 * 1024 });
    expect(loadConfig({ MAX_LINES_PER_MEETING: '100', MAX_MEETING_TEXT_BYTES: '4096' })).toMatchObject({
      MAX_LINES_PER_MEETING: 100,
      MAX_MEETING_TEXT_BYTES: 4096,
    });
  });

  it('refuse values that are no bound, naming the setting', () => {
    expect(() => loadConfig({ MAX_LINES_PER_MEETING: '0' })).toThrow(/MAX_LINES_PER_MEETING/);
    expect(() => loadConfig({ MAX_LINES_PER_MEETING: 'lots' })).toThrow(/MAX_LINES_PER_MEETING/);
    expect(() => loadConfig({ MAX_MEETING_TEXT_BYTES: '100' })).toThrow(/MAX_MEETING_TEXT_BYTES/);
    // Counted in a 32-bit column.
    expect(() => loadConfig({ MAX_MEETING_TEXT_BYTES: '3000000000' })).toThrow(/MAX_MEETING_TEXT_BYTES/);
  });
});

describe('FIREBASE_WEB_CONFIG', () => {
  const web = { apiKey: 'k', authDomain: 'demo.firebaseapp.com', projectId: 'demo' };

  it('is read as JSON once, at start', () => {
    expect(loadConfig({ AUTH_MODE: 'firebase', FIREBASE_WEB_CONFIG: JSON.stringify(web) }).FIREBASE_WEB_CONFIG).toEqual(web);
    expect(loadConfig({}).FIREBASE_WEB_CONFIG).toBeUndefined();
  });

  it('refuses a value that is no web config, and firebase mode without one, naming the setting', () => {
    expect(() => loadConfig({ FIREBASE_WEB_CONFIG: '{apiKey: k}' })).toThrow(/FIREBASE_WEB_CONFIG must be the JSON of a Firebase web config/);
    expect(() => loadConfig({ FIREBASE_WEB_CONFIG: JSON.stringify({ apiKey: 'k' }) })).toThrow(/FIREBASE_WEB_CONFIG must be the JSON/);
    expect(() => loadConfig({ AUTH_MODE: 'firebase' })).toThrow(/FIREBASE_WEB_CONFIG: AUTH_MODE=firebase needs FIREBASE_WEB_CONFIG/);
  });
});

describe('FIREBASE_AUTH_EMULATOR_HOST', () => {
  it('is host:port, checked at start like every other setting', () => {
    expect(loadConfig({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }).FIREBASE_AUTH_EMULATOR_HOST).toBe('127.0.0.1:9099');
    expect(loadConfig({}).FIREBASE_AUTH_EMULATOR_HOST).toBeUndefined();
    expect(() => loadConfig({ FIREBASE_AUTH_EMULATOR_HOST: 'http://127.0.0.1:9099' })).toThrow(/FIREBASE_AUTH_EMULATOR_HOST must be host:port/);
  });
});
