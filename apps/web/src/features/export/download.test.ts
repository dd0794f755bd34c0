import { describe, expect, it } from 'vitest';
import { dispositionFileName } from './download';

describe('dispositionFileName', () => {
  it('prefers the UTF-8 name of filename* over the ASCII fallback', () => {
    const header = `attachment; filename="Cafe sync _ _-2026-11-20.md"; filename*=UTF-8''Caf%C3%A9%20sync%20%E2%80%94%20%D0%BF%D0%BB%D0%B0%D0%BD-2026-11-20.md`;
    expect(dispositionFileName(header)).toBe('Café sync — план-2026-11-20.md');
  });

  it('reads a plain quoted or bare filename, and nothing from a missing header', () => {
    expect(dispositionFileName('attachment; filename="Weekly sync-2026-11-20.pdf"')).toBe('Weekly sync-2026-11-20.pdf');
    expect(dispositionFileName('attachment; filename=notes.txt')).toBe('notes.txt');
    expect(dispositionFileName(`attachment; filename="a.md"; filename*=UTF-8''%E0%A4%A`)).toBe('a.md');
    expect(dispositionFileName(null)).toBeNull();
  });
});
