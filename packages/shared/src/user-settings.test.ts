import { describe, expect, it } from 'vitest';
import {
  changedSettings,
  premiumFieldsChanged,
  USER_SETTINGS_DEFAULTS,
  userSettingsSchema,
  userSettingsUpdateSchema,
} from './user-settings.js';

const issueOf = (body: unknown) => {
  const result = userSettingsUpdateSchema.safeParse(body);
  return result.success ? null : { path: result.error.issues[0]?.path.join('.'), message: result.error.issues[0]?.message };
};

describe('USER_SETTINGS_DEFAULTS', () => {
  it('hold the defaults of product.md, Data', () => {
    expect(userSettingsSchema.parse(USER_SETTINGS_DEFAULTS)).toEqual({
      sendNoSummary: false,
      sendSummary: true,
      redirectEmails: '',
      whiteEmailList: [],
      onboardingComplete: false,
      isPremium: false,
      premiumUntil: 0,
      premiumActive: false,
      defaultSummaryDepth: 'standard',
      defaultMaxSummaryLength: 0,
      defaultMinSummaryLength: 200,
      defaultTranslateTo: '',
      timezone: 'UTC',
    });
  });
});

describe('userSettingsUpdateSchema', () => {
  it('accepts any subset of writable fields, normalising e-mail lists', () => {
    expect(userSettingsUpdateSchema.parse({})).toEqual({});
    expect(
      userSettingsUpdateSchema.parse({
        sendSummary: false,
        whiteEmailList: ['a@b.co', 'a@b.co'],
        redirectEmails: 'a@b.co c@d.org',
        defaultSummaryDepth: 'speaker',
        defaultMinSummaryLength: 100,
        defaultMaxSummaryLength: 0,
        defaultTranslateTo: 'ua',
        timezone: 'Europe/Kyiv',
      }),
    ).toEqual({
      sendSummary: false,
      whiteEmailList: ['a@b.co'],
      redirectEmails: 'a@b.co, c@d.org',
      defaultSummaryDepth: 'speaker',
      defaultMinSummaryLength: 100,
      defaultMaxSummaryLength: 0,
      defaultTranslateTo: 'ua',
      timezone: 'Europe/Kyiv',
    });
    expect(userSettingsUpdateSchema.parse({ defaultTranslateTo: '' })).toEqual({ defaultTranslateTo: '' });
  });

  it.each([
    [{ sendSummary: 'yes' }, 'sendSummary'],
    [{ whiteEmailList: ['bad'] }, 'whiteEmailList.0'],
    [{ whiteEmailList: 'a@b.co' }, 'whiteEmailList'],
    [{ redirectEmails: 'a@b.co nope' }, 'redirectEmails'],
    [{ defaultSummaryDepth: 'abstract' }, 'defaultSummaryDepth'],
    [{ defaultSummaryDepth: 'bottomless' }, 'defaultSummaryDepth'],
    [{ defaultMinSummaryLength: 25 }, 'defaultMinSummaryLength'],
    [{ defaultMinSummaryLength: 120 }, 'defaultMinSummaryLength'],
    [{ defaultMinSummaryLength: 100.5 }, 'defaultMinSummaryLength'],
    [{ defaultMinSummaryLength: 1e12 }, 'defaultMinSummaryLength'],
    [{ defaultMaxSummaryLength: -50 }, 'defaultMaxSummaryLength'],
    [{ defaultMaxSummaryLength: 75 }, 'defaultMaxSummaryLength'],
    [{ defaultMaxSummaryLength: '100' }, 'defaultMaxSummaryLength'],
    [{ defaultTranslateTo: 'xx' }, 'defaultTranslateTo'],
    [{ defaultTranslateTo: 'uk' }, 'defaultTranslateTo'],
    [{ timezone: 'Mars/Base' }, 'timezone'],
  ])('refuses %j naming %s', (body, path) => {
    expect(issueOf(body)?.path).toBe(path);
  });

  it('refuses unknown and read-only fields', () => {
    expect(issueOf({ isPremium: true })?.message).toMatch(/isPremium/);
    expect(issueOf({ premiumUntil: 9e9 })?.message).toMatch(/premiumUntil/);
    expect(issueOf({ premiumActive: true })).not.toBeNull();
    expect(issueOf({ colour: 'red' })).not.toBeNull();
  });
});

describe('changedSettings and premiumFieldsChanged', () => {
  it('keep only fields whose value differs', () => {
    const current = { ...USER_SETTINGS_DEFAULTS, whiteEmailList: ['a@b.co'] };
    expect(changedSettings(current, { sendSummary: true, whiteEmailList: ['a@b.co'] })).toEqual({});
    expect(changedSettings(current, { sendSummary: false, whiteEmailList: ['a@b.co', 'c@d.org'] })).toEqual({
      sendSummary: false,
      whiteEmailList: ['a@b.co', 'c@d.org'],
    });
  });
  it('name premium-only fields an update would change', () => {
    const current = USER_SETTINGS_DEFAULTS;
    expect(premiumFieldsChanged(current, { defaultSummaryDepth: 'standard', defaultMinSummaryLength: 200 })).toEqual([]);
    expect(premiumFieldsChanged(current, { sendSummary: false, defaultTranslateTo: 'fr', defaultMaxSummaryLength: 400 })).toEqual([
      'defaultMaxSummaryLength',
      'defaultTranslateTo',
    ]);
  });
});
