import { describe, expect, it } from 'vitest';
import { USER_SETTINGS_DEFAULTS, type UserSettings } from '@mbox/shared/user-settings';
import { addEmailChips, canSaveEmailForm, emailFormChanges, emailFormErrors, emailFormFrom, invalidEmailText } from './email-settings-form';

const stored: UserSettings = { ...USER_SETTINGS_DEFAULTS, redirectEmails: 'me@work.com, boss@work.com', whiteEmailList: ['a@b.co'] };

describe('email settings form', () => {
  it('turns only valid entries, split on commas or whitespace, into new chips; invalid ones stay typed', () => {
    expect(addEmailChips(['a@b.co'], 'x@y.org, a@b.co\nnope  z@w.io,,bad@host')).toEqual({
      chips: ['a@b.co', 'x@y.org', 'z@w.io'],
      rest: 'nope, bad@host',
    });
    expect(addEmailChips([], '   ')).toEqual({ chips: [], rest: '' });
    // The ending must be 2 to 6 letters (product.md, Validation).
    expect(addEmailChips([], 'a@b.c a@b.abcdefg a@b.museum').chips).toEqual(['a@b.museum']);
  });

  it('has nothing to save for the stored settings, and saves only what changed', () => {
    const form = emailFormFrom(stored);
    expect(emailFormChanges(stored, form)).toEqual({});
    expect(canSaveEmailForm(stored, form, false)).toBe(false);
    const toggled = { ...form, sendSummary: false };
    expect(emailFormChanges(stored, toggled)).toEqual({ sendSummary: false });
    expect(canSaveEmailForm(stored, toggled, false)).toBe(true);
    expect(canSaveEmailForm(stored, toggled, true)).toBe(false);
    // Toggled back: nothing changed again.
    expect(canSaveEmailForm(stored, { ...toggled, sendSummary: true }, false)).toBe(false);
  });

  it('compares addresses as the server stores them', () => {
    const form = { ...emailFormFrom(stored), redirectEmails: ' me@work.com   boss@work.com ' };
    expect(emailFormChanges(stored, form)).toEqual({});
    expect(emailFormChanges(stored, { ...form, redirectEmails: '' })).toEqual({ redirectEmails: '' });
  });

  it('counts valid typed addresses as chips and removed chips as a change', () => {
    const form = emailFormFrom(stored);
    expect(emailFormChanges(stored, { ...form, pendingEmail: 'new@mail.com' })).toEqual({ whiteEmailList: ['a@b.co', 'new@mail.com'] });
    expect(emailFormChanges(stored, { ...form, whiteEmailList: [] })).toEqual({ whiteEmailList: [] });
  });

  it('names invalid typed addresses; a valid change next to them can be saved, and they stay typed after it', () => {
    const form = { ...emailFormFrom(stored), sendNoSummary: true, redirectEmails: 'me@work.com, oops', pendingEmail: 'new@mail.com x@' };
    expect(emailFormErrors(form)).toEqual({ redirectEmails: 'Not an e-mail address: oops', pendingEmail: 'Not an e-mail address: x@' });
    expect(canSaveEmailForm(stored, form, false)).toBe(true);
    expect(emailFormChanges(stored, form)).toEqual({ sendNoSummary: true, redirectEmails: 'me@work.com', whiteEmailList: ['a@b.co', 'new@mail.com'] });

    const saved = { ...stored, sendNoSummary: true, redirectEmails: 'me@work.com', whiteEmailList: ['a@b.co', 'new@mail.com'] };
    const after = emailFormFrom(saved, invalidEmailText(form));
    expect(after).toMatchObject({ redirectEmails: 'me@work.com, oops', pendingEmail: 'x@', whiteEmailList: ['a@b.co', 'new@mail.com'] });
    expect(emailFormErrors(after)).toEqual({ redirectEmails: 'Not an e-mail address: oops', pendingEmail: 'Not an e-mail address: x@' });
    // Only invalid text differs from what is saved: nothing to save.
    expect(canSaveEmailForm(saved, after, false)).toBe(false);
  });
});
