import { useId, useRef, useState, type FormEvent } from 'react';
import {
  MAX_PERSONAL_TOKENS,
  PERSONAL_TOKEN_NAME_MAX_LENGTH,
  personalTokenCreateInputSchema,
  type PersonalToken,
  type PersonalTokenCreated,
  type PersonalTokenScope,
} from '@mbox/shared/access-tokens';
import { MCP_PATH } from '@mbox/shared/mcp';
import { handleApiError, refusalOf } from '../../lib/errors';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { ConfirmDialog } from '../ui/confirm-dialog';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const SCOPES: { scope: PersonalTokenScope; label: string; help: string }[] = [
  { scope: 'read', label: 'Read', help: 'Search and read meetings, transcripts and summaries, and ask questions' },
  { scope: 'write', label: 'Read and write', help: 'Also change and delete things, and generate summaries' },
];

/**
 * Settings › Access tokens (docs/mcp.md): personal access tokens for scripts (the REST API) and AI
 * assistants (the MCP server). A new token is shown once, here, with a copy button; the list shows
 * each token's name, scope, creation and last use, and revokes it.
 */
export default function AccessTokensTab() {
  const id = useId();
  const list = trpc.accessTokens.list.useQuery();
  const [created, setCreated] = useState<PersonalTokenCreated | null>(null);
  const tokens = list.data?.tokens ?? [];

  return (
    <section aria-labelledby={`${id}-heading`} className="card max-w-2xl border border-base-300 bg-base-100">
      <div className="card-body gap-5 p-4 sm:p-6">
        <div>
          <h2 id={`${id}-heading`} className="card-title">
            Access tokens
          </h2>
          <p className="mt-1 text-sm text-base-content/70">
            A token lets a script or an AI assistant use your meetings: the REST API at <code>{window.location.origin}/v1</code>{' '}
            and the MCP server at <code>{`${window.location.origin}${MCP_PATH}`}</code> (Claude, Cursor, VS Code). Send it as{' '}
            <code>Authorization: Bearer &lt;token&gt;</code>. Revoke a token you no longer use.
          </p>
        </div>

        {created && <NewToken created={created} onDone={() => setCreated(null)} />}

        {list.isPending ? (
          <span className="loading loading-dots loading-md" aria-label="Loading access tokens" />
        ) : list.isError ? (
          <p className="text-error">The access tokens could not be loaded.</p>
        ) : tokens.length === 0 ? (
          <p className="text-sm text-base-content/70">No access tokens yet.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-base-300" aria-label="Your access tokens">
            {tokens.map((token) => (
              <TokenItem key={token.id} token={token} />
            ))}
          </ul>
        )}

        {tokens.length < MAX_PERSONAL_TOKENS ? (
          <CreateTokenForm onCreated={setCreated} />
        ) : (
          <p className="text-sm text-base-content/70">You have {MAX_PERSONAL_TOKENS} access tokens, the most allowed.</p>
        )}
      </div>
    </section>
  );
}

/** The secret of a token just created: shown this once (only its hash is stored), with a copy button. */
function NewToken({ created, onDone }: { created: PersonalTokenCreated; onDone: () => void }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      toast.success('Token copied');
    } catch {
      // No clipboard here (an insecure origin): the token is selected to copy by hand.
      field.current?.select();
    }
  };
  return (
    <div role="status" aria-labelledby={`${id}-title`} className="alert alert-success alert-soft flex flex-col items-stretch gap-2">
      <p id={`${id}-title`} className="font-medium">
        Token “{created.accessToken.name}” created. Copy it now: it is not shown again.
      </p>
      <div className="join w-full">
        <input
          ref={field}
          readOnly
          aria-label="New access token"
          className="input join-item w-full font-mono text-xs"
          value={created.token}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="btn btn-primary join-item" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <div>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (created: PersonalTokenCreated) => void }) {
  const id = useId();
  const utils = trpc.useUtils();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<PersonalTokenScope>('read');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const create = trpc.accessTokens.create.useMutation({ meta: { silent: true } });

  const parsed = personalTokenCreateInputSchema.safeParse({ name, scope });
  const nameError = serverError ?? (touched && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === 'name')?.message : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.success || create.isPending) return;
    create.mutate(parsed.data, {
      onSuccess: (result) => {
        utils.accessTokens.list.setData(undefined, (current) => ({ tokens: [result.accessToken, ...(current?.tokens ?? [])] }));
        onCreated(result);
        setName('');
        setTouched(false);
      },
      onError: (error) => {
        // A refused name is the form's to show; anything else goes through the one error mapping.
        const message = refusalOf(error)?.fieldMessage;
        if (message) setServerError(message);
        else handleApiError(error);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Create an access token" className="flex flex-col gap-3 border-t border-base-300 pt-4">
      <fieldset className="fieldset">
        <label className="fieldset-legend" htmlFor={`${id}-name`}>
          Token name
        </label>
        <input
          id={`${id}-name`}
          type="text"
          autoComplete="off"
          maxLength={PERSONAL_TOKEN_NAME_MAX_LENGTH}
          className={`input w-full ${nameError ? 'input-error' : ''}`}
          placeholder="Claude Desktop on my laptop"
          value={name}
          disabled={create.isPending}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={`${id}-name-help`}
          onChange={(e) => {
            setName(e.target.value);
            setServerError(null);
          }}
        />
        <span id={`${id}-name-help`} className={`label whitespace-normal ${nameError ? 'text-error' : ''}`}>
          {nameError ?? 'What uses it, so you know which one to revoke.'}
        </span>
      </fieldset>
      <fieldset className="fieldset">
        <legend className="fieldset-legend">Scope</legend>
        {SCOPES.map((option) => (
          <label key={option.scope} className="flex cursor-pointer items-start gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-scope`}
              className="radio radio-sm radio-primary mt-0.5"
              checked={scope === option.scope}
              disabled={create.isPending}
              onChange={() => setScope(option.scope)}
            />
            <span>
              <span className="font-medium">{option.label}</span>
              <span className="block text-base-content/70">{option.help}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="flex justify-end">
        <button type="submit" className="btn btn-primary btn-outline" disabled={create.isPending || (touched && !parsed.success)}>
          {create.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Create token
        </button>
      </div>
    </form>
  );
}

function TokenItem({ token }: { token: PersonalToken }) {
  const utils = trpc.useUtils();
  const dialog = useRef<HTMLDialogElement>(null);
  const revoke = trpc.accessTokens.revoke.useMutation({
    onSuccess: () => {
      utils.accessTokens.list.setData(undefined, (current) => current && { tokens: current.tokens.filter((t) => t.id !== token.id) });
      toast.success(`Token “${token.name}” revoked`);
    },
  });
  return (
    <li aria-label={token.name} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
      <div className="min-w-0 flex-1">
        <p className="font-medium break-words">
          {token.name}
          <span className={`badge badge-sm ml-2 align-middle ${token.scope === 'write' ? 'badge-warning' : 'badge-ghost'}`}>
            {token.scope === 'write' ? 'read and write' : 'read'}
          </span>
        </p>
        <p className="text-sm text-base-content/70">
          Created {dateTime.format(token.createdAt)} · {token.lastUsedAt === null ? 'never used' : `last used ${dateTime.format(token.lastUsedAt)}`}
        </p>
      </div>
      <button type="button" className="btn btn-outline btn-sm" disabled={revoke.isPending} onClick={() => dialog.current?.showModal()}>
        Revoke
      </button>
      <ConfirmDialog
        ref={dialog}
        title={`Revoke “${token.name}”?`}
        cancelLabel="Keep it"
        confirmLabel="Revoke token"
        onConfirm={() => revoke.mutate({ id: token.id })}
      >
        Whatever uses this token stops working at once. This cannot be undone: create a new token to reconnect it.
      </ConfirmDialog>
    </li>
  );
}
