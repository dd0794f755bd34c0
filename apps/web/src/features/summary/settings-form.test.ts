import { describe, expect, it } from 'vitest';
import { INITIAL_SETTINGS_FORM, settleLengths, toSummarySettings, type SettingsForm } from './settings-form';

const form = (extra: Partial<SettingsForm>): SettingsForm => ({ ...INITIAL_SETTINGS_FORM, lengthControl: true, ...extra });

describe('summary settings form (product.md, Validation)', () => {
  it('starts from the UI defaults: standard depth, length control off, min 50, max 0', () => {
    expect(INITIAL_SETTINGS_FORM).toEqual({ lengthControl: false, depth: 'standard', minLength: '50', maxLength: '0' });
  });

  it('snaps min to the step of 50 and to at least 50; a non-integer falls back to 50', () => {
    expect(settleLengths(form({ minLength: '30' })).minLength).toBe('50');
    expect(settleLengths(form({ minLength: '120' })).minLength).toBe('100');
    expect(settleLengths(form({ minLength: '12.5' })).minLength).toBe('50');
    expect(settleLengths(form({ minLength: '' })).minLength).toBe('50');
  });

  it('keeps max at 0 (no limit) or at least min; a non-integer falls back to 0', () => {
    expect(settleLengths(form({ minLength: '200', maxLength: '100' })).maxLength).toBe('200');
    expect(settleLengths(form({ minLength: '200', maxLength: '0' })).maxLength).toBe('0');
    expect(settleLengths(form({ minLength: '200', maxLength: '420' })).maxLength).toBe('400');
    expect(settleLengths(form({ maxLength: 'x' })).maxLength).toBe('0');
  });

  it('sends only the depth without length control, and the lengths with it', () => {
    expect(toSummarySettings({ ...INITIAL_SETTINGS_FORM, depth: 'speaker' })).toEqual({ ok: true, settings: { depth: 'speaker' } });
    expect(toSummarySettings(form({ depth: 'deep', minLength: '100', maxLength: '300' }))).toEqual({
      ok: true,
      settings: { depth: 'deep', minLength: 100, maxLength: 300 },
    });
  });

  it('names the field the shared schema refuses when lengths were not settled', () => {
    expect(toSummarySettings(form({ minLength: '75' }))).toEqual({ ok: false, errors: { minLength: 'minLength must be a multiple of 50' } });
    expect(toSummarySettings(form({ minLength: '300', maxLength: '100' }))).toEqual({
      ok: false,
      errors: { maxLength: 'maxLength must be 0 (no limit) or at least minLength' },
    });
  });
});
