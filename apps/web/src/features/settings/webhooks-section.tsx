import { useId, useState, type FormEvent } from 'react';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOKS_PER_USER,
  createWebhookInputSchema,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '@mbox/shared/webhooks';
import { handleApiError, refusalOf } from '../../lib/errors';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

/** How often the list is read again while a delivery is queued or being retried. */
const PENDING_REFRESH_MS = 2000;

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Settings › General › Webhooks: signed POSTs to the user's receivers (docs/webhooks.md). */
export function WebhooksSection() {
  const id = useId();
  const list = trpc.webhooks.list.useQuery(undefined, {
    refetchInterval: (query) =>
      query.state.data?.webhooks.some((hook) => hook.deliveries.some((d) => d.status === 'pending')) ? PENDING_REFRESH_MS : false,
  });
  const webhooks = list.data?.webhooks ?? [];

  return (
    <section aria-labelledby={`${id}-heading`} className="card border border-base-300 bg-base-100">
      <div className="card-body gap-5 p-4 sm:p-6">
        <div>
          <h2 id={`${id}-heading`} className="card-title">
            Webhooks
          </h2>
          <p className="mt-1 text-sm text-base-content/70">
            Mbox sends a signed JSON POST to your URL when a meeting finishes, a summary is created or an action item is created or changed, for Zapier, n8n
            or your own server. Verify each delivery with the webhook&apos;s secret (the Mbox-Signature header).
          </p>
        </div>

        {list.isPending ? (
          <span className="loading loading-dots loading-md" aria-label="Loading webhooks" />
        ) : list.isError ? (
          <p className="text-error">The webhooks could not be loaded.</p>
        ) : webhooks.length === 0 ? (
          <p className="text-sm text-base-content/70">No webhooks yet.</p>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Your webhooks">
            {webhooks.map((hook) => (
              <WebhookItem key={hook.id} hook={hook} />
            ))}
          </ul>
        )}

        {webhooks.length < WEBHOOKS_PER_USER ? (
          <AddWebhookForm />
        ) : (
          <p className="text-sm text-base-content/70">You have {WEBHOOKS_PER_USER} webhooks, the most allowed.</p>
        )}
      </div>
    </section>
  );
}

function AddWebhookForm() {
  const id = useId();
  const utils = trpc.useUtils();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([...WEBHOOK_EVENTS]);
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const create = trpc.webhooks.create.useMutation({ meta: { silent: true } });

  const parsed = createWebhookInputSchema.safeParse({ url, events });
  const issue = (field: 'url' | 'events') => (parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === field)?.message);
  const urlError = serverError ?? (touched ? issue('url') : undefined);
  const eventsError = issue('events');

  const toggleEvent = (event: WebhookEvent, on: boolean) =>
    setEvents((current) => (on ? [...current, event] : current.filter((item) => item !== event)));

  const submit = (formEvent: FormEvent) => {
    formEvent.preventDefault();
    setTouched(true);
    if (!parsed.success || create.isPending) return;
    create.mutate(parsed.data, {
      onSuccess: (hook) => {
        utils.webhooks.list.setData(undefined, (current) => ({ webhooks: [...(current?.webhooks ?? []), hook] }));
        setUrl('');
        setTouched(false);
        toast.success('Webhook added');
      },
      onError: (error) => {
        // A refused URL (an input error naming the field) is the form's to show; anything else goes through the one error mapping.
        const message = refusalOf(error)?.fieldMessage;
        if (message) setServerError(message);
        else handleApiError(error);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Add a webhook" className="flex flex-col gap-3 border-t border-base-300 pt-4">
      <fieldset className="fieldset">
        <label className="fieldset-legend" htmlFor={`${id}-url`}>
          Receiver URL
        </label>
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          autoComplete="off"
          className={`input w-full ${urlError ? 'input-error' : ''}`}
          placeholder="https://hooks.example.com/mbox"
          value={url}
          disabled={create.isPending}
          aria-invalid={urlError ? true : undefined}
          aria-describedby={`${id}-url-help`}
          onChange={(e) => {
            setUrl(e.target.value);
            setServerError(null);
          }}
          onBlur={() => setTouched(url.trim() !== '')}
        />
        <span id={`${id}-url-help`} className={`label whitespace-normal ${urlError ? 'text-error' : ''}`}>
          {urlError ?? 'A public https:// address that accepts POST requests.'}
        </span>
      </fieldset>
      <fieldset className="fieldset" aria-describedby={eventsError ? `${id}-events-error` : undefined}>
        <legend className="fieldset-legend">Events</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} className="flex cursor-pointer items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="checkbox checkbox-sm checkbox-primary"
                checked={events.includes(event)}
                disabled={create.isPending}
                onChange={(e) => toggleEvent(event, e.target.checked)}
              />
              {WEBHOOK_EVENT_LABELS[event]} <code className="text-xs text-base-content/70">{event}</code>
            </label>
          ))}
        </div>
        {eventsError && (
          <span id={`${id}-events-error`} className="label text-error">
            {eventsError}
          </span>
        )}
      </fieldset>
      <div className="flex justify-end">
        <button type="submit" className="btn btn-primary btn-outline" disabled={create.isPending || (touched && !parsed.success)}>
          {create.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Add webhook
        </button>
      </div>
    </form>
  );
}

function WebhookItem({ hook }: { hook: Webhook }) {
  const utils = trpc.useUtils();
  const [confirming, setConfirming] = useState(false);
  const [showSecret, setShowSecret] = useState(false);
  const remove = trpc.webhooks.delete.useMutation({
    onSuccess: () =>
      utils.webhooks.list.setData(undefined, (current) => current && { webhooks: current.webhooks.filter((h) => h.id !== hook.id) }),
  });
  const test = trpc.webhooks.test.useMutation({
    onSuccess: (updated) => {
      utils.webhooks.list.setData(undefined, (current) => current && { webhooks: current.webhooks.map((h) => (h.id === updated.id ? updated : h)) });
      toast.success('Test delivery queued');
    },
  });

  const copySecret = async () => {
    try {
      await navigator.clipboard.writeText(hook.secret);
      toast.success('Secret copied');
    } catch {
      // No clipboard here (an insecure origin): show it to copy by hand.
      setShowSecret(true);
    }
  };

  return (
    <li className="rounded-box border border-base-300 p-3 sm:p-4" aria-label={`Webhook ${hook.url}`}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all">{hook.url}</p>
          <div className="mt-1.5 flex flex-wrap gap-1.5">
            {hook.events.map((event) => (
              <span key={event} className="badge badge-outline badge-sm">
                {event}
              </span>
            ))}
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-1.5">
          <button type="button" className="btn btn-ghost btn-xs" onClick={() => void copySecret()}>
            Copy secret
          </button>
          <button type="button" className="btn btn-ghost btn-xs" onClick={() => setShowSecret((v) => !v)} aria-expanded={showSecret}>
            {showSecret ? 'Hide secret' : 'Show secret'}
          </button>
          <button type="button" className="btn btn-ghost btn-xs" disabled={test.isPending} onClick={() => test.mutate({ id: hook.id })}>
            Send test
          </button>
          {!confirming && (
            <button type="button" className="btn btn-ghost btn-xs text-error" onClick={() => setConfirming(true)}>
              Delete
            </button>
          )}
        </div>
      </div>
      {showSecret && (
        <p className="mt-2 rounded bg-base-200 px-2 py-1 font-mono text-xs break-all" aria-label="Signing secret">
          {hook.secret}
        </p>
      )}
      {confirming && (
        <div role="alert" className="alert alert-warning alert-soft mt-3 flex flex-wrap items-center justify-between gap-2 py-2">
          <span className="text-sm">Delete this webhook and its delivery log?</span>
          <span className="flex gap-2">
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => setConfirming(false)} disabled={remove.isPending}>
              Cancel
            </button>
            <button type="button" className="btn btn-error btn-xs" onClick={() => remove.mutate({ id: hook.id })} disabled={remove.isPending}>
              Delete webhook
            </button>
          </span>
        </div>
      )}
      <Deliveries deliveries={hook.deliveries} />
    </li>
  );
}

function deliveryBadge(delivery: WebhookDelivery): { label: string; tone: string } {
  if (delivery.status === 'delivered') return { label: 'Delivered', tone: 'badge-success' };
  if (delivery.status === 'failed') return { label: 'Failed', tone: 'badge-error' };
  return delivery.attempts > 0 ? { label: 'Retrying', tone: 'badge-warning' } : { label: 'Queued', tone: 'badge-ghost' };
}

function Deliveries({ deliveries }: { deliveries: WebhookDelivery[] }) {
  if (deliveries.length === 0) return <p className="mt-3 text-xs text-base-content/70">No deliveries yet.</p>;
  return (
    <div className="mt-3">
      <h3 className="mb-1 text-xs font-semibold tracking-wide text-base-content/70 uppercase">Recent deliveries</h3>
      <ul className="flex flex-col divide-y divide-base-200 text-sm" aria-label="Recent deliveries">
        {deliveries.map((delivery) => {
          const badge = deliveryBadge(delivery);
          return (
            <li key={delivery.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5">
              <span className={`badge badge-sm ${badge.tone}`}>{badge.label}</span>
              <code className="text-xs">{delivery.event}</code>
              <span className="text-xs text-base-content/70">
                {dateTime.format(delivery.createdAt)}
                {delivery.responseStatus !== null && ` · HTTP ${delivery.responseStatus}`}
                {` · ${delivery.attempts} ${delivery.attempts === 1 ? 'attempt' : 'attempts'}`}
              </span>
              {delivery.error && <span className="w-full text-xs break-words text-error">{delivery.error}</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
