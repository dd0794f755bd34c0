import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './auth-user-agent.js';

describe('describeUserAgent', () => {
  it('names the browser and system of common agents', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome on macOS');
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox on Linux');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      ),
    ).toBe('Edge on Windows');
    expect(
      describeUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'),
    ).toBe('Safari on iOS');
  });

  it('keeps the first word of other clients and names an empty agent', () => {
    expect(describeUserAgent('curl/8.5.0')).toBe('curl');
    expect(describeUserAgent('node')).toBe('node');
    expect(describeUserAgent('  ')).toBe('Unknown client');
  });
});
