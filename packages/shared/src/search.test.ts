import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './prompts/languages.js';
import { SEARCH_CONFIGS, searchConfigForAcceptLanguage, searchConfigForLanguage, searchInputSchema } from './search.js';

describe('search configuration of a meeting', () => {
  it('maps every language of product.md, Limits', () => {
    for (const { code } of LANGUAGES) expect(SEARCH_CONFIGS[code], code).toBeDefined();
    expect(searchConfigForLanguage('de-DE')).toBe('german');
    expect(searchConfigForLanguage('pt_BR')).toBe('portuguese');
    expect(searchConfigForLanguage('uk-UA')).toBe('simple');
    expect(searchConfigForLanguage('ja')).toBe('simple');
    expect(searchConfigForLanguage('ru')).toBe('simple');
  });

  it('takes the most preferred language of an Accept-Language header', () => {
    expect(searchConfigForAcceptLanguage('de-DE,de;q=0.9,en;q=0.8')).toBe('german');
    expect(searchConfigForAcceptLanguage('en;q=0.5, fr-CA;q=0.9')).toBe('french');
    expect(searchConfigForAcceptLanguage('*, es;q=0.1')).toBe('spanish');
    expect(searchConfigForAcceptLanguage('nb-NO')).toBe('norwegian');
    expect(searchConfigForAcceptLanguage(undefined)).toBe('english');
    expect(searchConfigForAcceptLanguage('')).toBe('english');
    expect(searchConfigForAcceptLanguage('fr;q=0')).toBe('english');
  });
});

describe('search input', () => {
  it('trims q and names it when it is missing, empty or too long', () => {
    expect(searchInputSchema.parse({ q: '  budget  ' })).toEqual({ q: 'budget', limit: 20 });
    for (const q of [undefined, '', '   ', 'x'.repeat(201)]) {
      const result = searchInputSchema.safeParse({ q });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/^q /);
    }
  });
});
