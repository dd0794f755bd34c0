import { useId, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import type { RecipientStatus } from '@mbox/shared/recap';
import type { UserSettings } from '@mbox/shared/user-settings';
import { trpc } from '../../lib/trpc';
import { PageLoader } from '../../routes/guards';
import {
  addEmailChips,
  canSaveEmailForm,
  emailFormChanges,
  emailFormErrors,
  emailFormFrom,
  invalidEmailText,
  NO_INVALID_EMAIL_TEXT,
  type EmailSettingsForm,
  type InvalidEmailText,
} from './email-settings-form';
import { useUserSettings } from './use-user-settings';
import { WebhooksSection } from './webhooks-section';

/** Settings › General tab (product.md, Screens): the e-mail recap options and the outgoing webhooks. */
export default function GeneralTab() {
  const { settings, loading, saving, save } = useUserSettings();
  const utils = trpc.useUtils();
  // What a save could not store (not e-mail addresses) stays typed in the form it restarts.
  const [invalidText, setInvalidText] = useState<InvalidEmailText>(NO_INVALID_EMAIL_TEXT);
  const onSave = async (current: UserSettings, form: EmailSettingsForm) => {
    setInvalidText(invalidEmailText(form));
    // New addresses get their confirmation e-mail: their state is read again.
    if (await save(emailFormChanges(current, form))) await utils.recap.recipients.invalidate();
  };
  return (
    <div className="flex max-w-2xl flex-col gap-8">
      {loading ? (
        <PageLoader />
      ) : settings ? (
        // Saved values come back from the server: a new key starts the form from them.
        <EmailSection
          key={JSON.stringify(emailFormFrom(settings))}
          settings={settings}
          invalidText={invalidText}
          saving={saving}
          onSave={(form) => void onSave(settings, form)}
        />
      ) : (
        <p className="text-error">The settings could not be loaded. Reload the page to try again.</p>
      )}
      <WebhooksSection />
    </div>
  );
}

const CONSENT_LABELS: Record<RecipientStatus, [string, string]> = {
  pending: ['Pending confirmation', 'badge-warning'],
  confirmed: ['Confirmed', 'badge-success'],
  declined: ['Declined', 'badge-error'],
};

/** While a confirmation e-mail is on its way, its state is read again this often. */
const CONSENT_REFRESH_MS = 3000;

/**
 * Addresses of the saved settings other than the account's own, with their owner's answer: recaps go to
 * them only once confirmed (the server e-mails each a link).
 */
function RecipientConsents() {
  const id = useId();
  const query = trpc.recap.recipients.useQuery(undefined, {
    meta: { silent: true },
    refetchInterval: (q) =>
      q.state.data?.recipients.some((r) => r.status === 'pending' && r.confirmationSentAt === null && !r.error) ? CONSENT_REFRESH_MS : false,
  });
  if (!query.data) return null;
  const { recipients, maxRecipients, emailsPerDay } = query.data;
  const limits = `At most ${maxRecipients} addresses${emailsPerDay ? `; your recaps and confirmations send at most ${emailsPerDay} e-mails a day` : ''}.`;
  return (
    <div className="flex flex-col gap-2">
      <h3 id={`${id}-heading`} className="font-medium">
        Other people’s addresses
      </h3>
      <p className="text-sm text-base-content/70">
        Recaps go to an address other than yours only after its owner agrees, by the link Mbox e-mails them. {limits}
      </p>
      {recipients.length > 0 && (
        <ul aria-labelledby={`${id}-heading`} className="flex flex-col gap-1.5">
          {recipients.map((recipient) => {
            const [label, tone] = CONSENT_LABELS[recipient.status];
            return (
              <li key={recipient.email} aria-label={`${recipient.email}: ${label}`} className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-sm">
                <span className="break-all">{recipient.email}</span>
                <span className={`badge badge-sm badge-soft ${tone}`}>{label}</span>
                {recipient.error && <span className="basis-full text-error">{recipient.error}</span>}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function EmailSection({
  settings,
  invalidText,
  saving,
  onSave,
}: {
  settings: UserSettings;
  invalidText: InvalidEmailText;
  saving: boolean;
  onSave: (form: EmailSettingsForm) => void;
}) {
  const id = useId();
  const [form, setForm] = useState<EmailSettingsForm>(() => emailFormFrom(settings, invalidText));
  const update = (patch: Partial<EmailSettingsForm>) => setForm((current) => ({ ...current, ...patch }));
  const errors = emailFormErrors(form);
  const canSave = canSaveEmailForm(settings, form, saving);

  const commitPending = (text = form.pendingEmail) => {
    const { chips, rest } = addEmailChips(form.whiteEmailList, text);
    update({ whiteEmailList: chips, pendingEmail: rest });
  };
  const onChipKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',' || event.key === ' ') {
      event.preventDefault();
      commitPending();
    } else if (event.key === 'Backspace' && form.pendingEmail === '' && form.whiteEmailList.length > 0) {
      update({ whiteEmailList: form.whiteEmailList.slice(0, -1) });
    }
  };
  const onChipPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    commitPending(`${form.pendingEmail} ${event.clipboardData.getData('text')}`);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSave) onSave(form);
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="card border border-base-300 bg-base-100">
      <form className="card-body gap-5 p-4 sm:p-6" onSubmit={submit} noValidate aria-label="Email settings">
        <div>
          <h2 id={`${id}-heading`} className="card-title">
            Email
          </h2>
          <p className="mt-1 text-sm text-base-content/70">
            After each meeting Mbox e-mails you its summary. When this server has no mail server configured, recaps are
            kept in the{' '}
            <Link to="/outbox" className="link link-primary">
              Outbox
            </Link>{' '}
            instead.
          </p>
        </div>

        <label className="flex cursor-pointer items-start justify-between gap-4">
          <span>
            <span className="block font-medium">Send the summary after a meeting</span>
            <span className="block text-sm text-base-content/70">A recap with the summary goes out when a meeting ends.</span>
          </span>
          <input
            type="checkbox"
            className="toggle toggle-primary mt-0.5 shrink-0"
            checked={form.sendSummary}
            disabled={saving}
            onChange={(e) => update({ sendSummary: e.target.checked })}
          />
        </label>

        <label className="flex cursor-pointer items-start justify-between gap-4">
          <span>
            <span className="block font-medium">E-mail me when a meeting is too short to summarise</span>
            <span className="block text-sm text-base-content/70">
              Sent instead of a recap when a meeting has too few lines from different participants.
            </span>
          </span>
          <input
            type="checkbox"
            className="toggle toggle-primary mt-0.5 shrink-0"
            checked={form.sendNoSummary}
            disabled={saving}
            onChange={(e) => update({ sendNoSummary: e.target.checked })}
          />
        </label>

        <fieldset className="fieldset">
          <label className="fieldset-legend" htmlFor={`${id}-redirect`}>
            Send recaps to (instead of my account address)
          </label>
          <input
            id={`${id}-redirect`}
            type="text"
            inputMode="email"
            autoComplete="off"
            className={`input w-full ${errors.redirectEmails ? 'input-error' : ''}`}
            placeholder="name@example.com"
            value={form.redirectEmails}
            disabled={saving}
            aria-invalid={errors.redirectEmails ? true : undefined}
            aria-describedby={`${id}-redirect-help`}
            onChange={(e) => update({ redirectEmails: e.target.value })}
          />
          <span id={`${id}-redirect-help`} className={`label whitespace-normal ${errors.redirectEmails ? 'text-error' : ''}`}>
            {errors.redirectEmails ?? 'Leave empty to receive recaps at your account address.'}
          </span>
        </fieldset>

        <fieldset className="fieldset">
          <label className="fieldset-legend" htmlFor={`${id}-white`}>
            Also send recaps to
          </label>
          <div
            className={`input h-auto min-h-10 w-full flex-wrap gap-1.5 py-1.5 ${errors.pendingEmail ? 'input-error' : ''}`}
            aria-disabled={saving || undefined}
          >
            <ul aria-label="Additional recipients" className="contents">
              {form.whiteEmailList.map((email) => (
                <li key={email} className="badge badge-soft badge-primary h-auto max-w-full gap-1 py-0.5 break-all">
                  {email}
                  <button
                    type="button"
                    className="cursor-pointer rounded-full px-0.5 leading-none hover:bg-primary/20 disabled:cursor-not-allowed"
                    aria-label={`Remove ${email}`}
                    disabled={saving}
                    onClick={() => update({ whiteEmailList: form.whiteEmailList.filter((item) => item !== email) })}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
            <input
              id={`${id}-white`}
              type="text"
              inputMode="email"
              autoComplete="off"
              className="min-w-40 flex-1"
              placeholder={form.whiteEmailList.length ? '' : 'name@example.com, …'}
              value={form.pendingEmail}
              disabled={saving}
              aria-invalid={errors.pendingEmail ? true : undefined}
              aria-describedby={`${id}-white-help`}
              onChange={(e) => update({ pendingEmail: e.target.value })}
              onKeyDown={onChipKey}
              onPaste={onChipPaste}
              onBlur={() => commitPending()}
            />
          </div>
          <span id={`${id}-white-help`} className={`label whitespace-normal ${errors.pendingEmail ? 'text-error' : ''}`}>
            {errors.pendingEmail ?? 'Press Enter, a comma or a space to add an address; only valid addresses are added.'}
          </span>
        </fieldset>

        <RecipientConsents />

        <div className="card-actions justify-end">
          <button type="submit" className="btn btn-primary" disabled={!canSave}>
            {saving && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            Save
          </button>
        </div>
      </form>
    </section>
  );
}
