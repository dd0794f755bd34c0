import { describe, expect, it } from 'vitest';
import {
  ALTERNATE_PROMPT_LIST,
  AI_DAILY_GENERATION_LIMITS,
  DEFAULT_PROMPT_LIST,
  LANGUAGES,
  LANGUAGE_PICK_LIST,
  OFFERED_SUMMARY_DEPTHS,
  PROMPTS,
  PROMPT_KEYS,
  aiDailyGenerationLimit,
  coerceMaxSummaryLength,
  coerceMinSummaryLength,
  languageCodeSchema,
  promptTitle,
  summarySettingsSchema,
} from '../index.js';

describe('prompt catalogue', () => {
  it('has the titles of product.md, Limits in both lists', () => {
    expect(DEFAULT_PROMPT_LIST.map((k) => PROMPTS[k].title)).toEqual([
      'Summary',
      'Meeting goals',
      'Main topics',
      'Summary in 1 sentence',
      'Key decisions',
      'Action Items',
      'Next Steps',
      'Unresolved Issues',
      'Missing Information',
      'Sentiment Analysis',
    ]);
    expect(ALTERNATE_PROMPT_LIST.map((k) => PROMPTS[k].title)).toEqual([
      'Summary',
      'Deep Summary',
      'Main topics',
      'Summary in 1 sentence',
    ]);
  });

  it('gives every key a definition with its own instructions', () => {
    for (const key of PROMPT_KEYS) {
      expect(PROMPTS[key].key).toBe(key);
      expect(PROMPTS[key].instructions.length).toBeGreaterThan(40);
    }
    expect(new Set(PROMPT_KEYS.map((k) => PROMPTS[k].instructions)).size).toBe(PROMPT_KEYS.length);
  });

  it('titles a custom prompt with its question', () => {
    expect(promptTitle('custom', '  What was  decided about the price? ')).toBe('What was decided about the price?');
    expect(promptTitle('decision')).toBe('Key decisions');
    expect(promptTitle('custom', 'x'.repeat(300))).toHaveLength(120);
  });
});

describe('summary settings', () => {
  it('applies defaults and offers three depths', () => {
    expect(summarySettingsSchema.parse({})).toEqual({ depth: 'standard', minLength: 200, maxLength: 0, translateTo: '' });
    expect(OFFERED_SUMMARY_DEPTHS.map((d) => d.label)).toEqual(['Standard', 'Deep level of details', 'By speaker']);
    expect(summarySettingsSchema.parse({ depth: 'abstract' }).depth).toBe('abstract');
  });

  it('enforces the length rules of product.md, Validation', () => {
    expect(summarySettingsSchema.safeParse({ minLength: 50, maxLength: 0 }).success).toBe(true);
    expect(summarySettingsSchema.safeParse({ minLength: 100, maxLength: 100 }).success).toBe(true);
    expect(summarySettingsSchema.safeParse({ minLength: 0 }).success).toBe(false);
    expect(summarySettingsSchema.safeParse({ minLength: 75 }).success).toBe(false);
    expect(summarySettingsSchema.safeParse({ minLength: 100.5 }).success).toBe(false);
    const tooShort = summarySettingsSchema.safeParse({ minLength: 200, maxLength: 100 });
    expect(tooShort.success).toBe(false);
    expect(tooShort.error?.issues[0]?.path).toEqual(['maxLength']);
  });

  it('validates translateTo against the language list', () => {
    expect(summarySettingsSchema.parse({ translateTo: 'ua' }).translateTo).toBe('ua');
    expect(summarySettingsSchema.safeParse({ translateTo: 'xx' }).success).toBe(false);
  });

  it('coerces UI inputs like product.md, Validation', () => {
    expect(coerceMinSummaryLength('abc')).toBe(50);
    expect(coerceMinSummaryLength(12.5)).toBe(50);
    expect(coerceMinSummaryLength(10)).toBe(50);
    expect(coerceMinSummaryLength('150')).toBe(150);
    expect(coerceMaxSummaryLength('x', 100)).toBe(0);
    expect(coerceMaxSummaryLength(50, 100)).toBe(100);
    expect(coerceMaxSummaryLength(300, 100)).toBe(300);
    // What the inputs keep always passes the server's schema (multiples of 50).
    expect(coerceMinSummaryLength(120)).toBe(100);
    expect(coerceMinSummaryLength(130)).toBe(150);
    expect(coerceMaxSummaryLength(333, 100)).toBe(350);
    for (const typed of [51, 99, 120, 175, 999]) {
      const minLength = coerceMinSummaryLength(typed);
      const maxLength = coerceMaxSummaryLength(typed + 7, minLength);
      expect(summarySettingsSchema.safeParse({ minLength, maxLength }).success).toBe(true);
    }
  });
});

describe('languages and limits', () => {
  it('lists the 29 languages and the pick-list order', () => {
    expect(LANGUAGES).toHaveLength(29);
    expect(new Set(LANGUAGES.map((l) => l.code)).size).toBe(29);
    expect(LANGUAGE_PICK_LIST.slice(0, 4).map((l) => l.name)).toEqual(['English', 'Ukrainian', 'French', 'Polish']);
    expect(LANGUAGE_PICK_LIST).toHaveLength(29);
    expect(languageCodeSchema.safeParse('ua').success).toBe(true);
    expect(languageCodeSchema.safeParse('uk').success).toBe(false);
  });

  it('gives basic users 10 generations a day and premium users no limit', () => {
    expect(AI_DAILY_GENERATION_LIMITS.basic).toBe(10);
    expect(aiDailyGenerationLimit(false)).toBe(10);
    expect(aiDailyGenerationLimit(true)).toBeNull();
  });
});
