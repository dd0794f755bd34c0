import { parseEmailList } from '@mbox/shared/email-list';
import { changedSettings, type UserSettings, type UserSettingsUpdate } from '@mbox/shared/user-settings';

/** The General tab's Email section as the user edits it. */
export interface EmailSettingsForm {
  sendSummary: boolean;
  sendNoSummary: boolean;
  /** Typed text: addresses separated by commas or spaces. */
  redirectEmails: string;
  /** Chips: valid addresses only (product.md, Validation). */
  whiteEmailList: string[];
  /** What is typed in the chip input and not yet turned into chips. */
  pendingEmail: string;
}

/** Invalid text of the two address fields: a save stores the valid entries only, and this stays typed. */
export interface InvalidEmailText {
  redirectEmails: string;
  pendingEmail: string;
}

export const NO_INVALID_EMAIL_TEXT: InvalidEmailText = { redirectEmails: '', pendingEmail: '' };

/** The form for the saved settings, with the invalid text the last save left in the fields. */
export function emailFormFrom(settings: UserSettings, invalid: InvalidEmailText = NO_INVALID_EMAIL_TEXT): EmailSettingsForm {
  return {
    sendSummary: settings.sendSummary,
    sendNoSummary: settings.sendNoSummary,
    redirectEmails: [settings.redirectEmails, invalid.redirectEmails].filter(Boolean).join(', '),
    whiteEmailList: settings.whiteEmailList,
    pendingEmail: invalid.pendingEmail,
  };
}

/** What of the form a save leaves in the fields: the entries that are not e-mail addresses. */
export function invalidEmailText(form: EmailSettingsForm): InvalidEmailText {
  return {
    redirectEmails: parseEmailList(form.redirectEmails).invalid.join(', '),
    pendingEmail: parseEmailList(form.pendingEmail).invalid.join(', '),
  };
}

/**
 * Turns the valid addresses of typed text into chips (split on commas or whitespace, product.md, Validation),
 * skipping ones already there; invalid entries stay in the input so they can be fixed.
 */
export function addEmailChips(chips: readonly string[], text: string): { chips: string[]; rest: string } {
  const { valid, invalid } = parseEmailList(text);
  return { chips: [...chips, ...valid.filter((email) => !chips.includes(email))], rest: invalid.join(', ') };
}

export interface EmailFormErrors {
  redirectEmails?: string;
  pendingEmail?: string;
}

export function emailFormErrors(form: EmailSettingsForm): EmailFormErrors {
  const errors: EmailFormErrors = {};
  const redirectInvalid = parseEmailList(form.redirectEmails).invalid;
  if (redirectInvalid.length > 0) errors.redirectEmails = `Not an e-mail address: ${redirectInvalid.join(', ')}`;
  const pendingInvalid = parseEmailList(form.pendingEmail).invalid;
  if (pendingInvalid.length > 0) errors.pendingEmail = `Not an e-mail address: ${pendingInvalid.join(', ')}`;
  return errors;
}

/**
 * The update a save sends: the fields that differ from the cached settings (product.md, States: e-mail settings
 * are saved only when something changed). Addresses are compared as the server stores them, and
 * valid addresses still typed in the chip input count as chips.
 */
export function emailFormChanges(settings: UserSettings, form: EmailSettingsForm): UserSettingsUpdate {
  return changedSettings(settings, {
    sendSummary: form.sendSummary,
    sendNoSummary: form.sendNoSummary,
    redirectEmails: parseEmailList(form.redirectEmails).valid.join(', '),
    whiteEmailList: addEmailChips(form.whiteEmailList, form.pendingEmail).chips,
  });
}

/**
 * Save is disabled only while a save runs or when nothing valid changed (product.md, Validation): invalid text next to
 * a valid change does not block it; the save sends the valid entries and the invalid text stays.
 */
export function canSaveEmailForm(settings: UserSettings, form: EmailSettingsForm, saving: boolean): boolean {
  if (saving) return false;
  return Object.keys(emailFormChanges(settings, form)).length > 0;
}
