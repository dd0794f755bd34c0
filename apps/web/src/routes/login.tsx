import { useState, type FormEvent } from 'react';
import { LOCAL_EMAIL_MAX_LENGTH } from '@mbox/shared/auth';
import { LOGIN_LOCAL, LOGIN_WITH_GOOGLE } from '@mbox/shared/ui-messages';
import { PRIVACY_POLICY_URL } from '../lib/links';
import { useSession } from '../lib/session';

/**
 * The login screen (docs/product.md, "Login"): the button is idle, in progress (disabled), then idle
 * again. A failed sign-in says why in the card. In local mode the address field accepts what the server
 * accepts: any address a browser's e-mail field takes (`newbie@localhost` too), up to the same length.
 */
export default function LoginPage() {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [email, setEmail] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const local = session.mode === 'local';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      setFailure(await session.login(local && email.trim() ? { email: email.trim() } : {}));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="hero min-h-full bg-base-200">
      <div className="hero-content flex-col gap-10 lg:flex-row-reverse">
        <div className="max-w-md text-center lg:text-left">
          <h1 className="text-5xl font-bold">meet smarter</h1>
          <p className="py-6 text-base-content/80">
            Mbox turns your Google Meet captions into a live transcript, then summaries, translations and answers —
            without recording any audio or video.
          </p>
        </div>
        <form className="card w-full max-w-sm shrink-0 bg-base-100 shadow-2xl" onSubmit={(e) => void submit(e)}>
          <div className="card-body">
            <h2 className="card-title text-2xl">Login now!</h2>
            {local && (
              <fieldset className="fieldset">
                <label className="fieldset-label" htmlFor="local-email">
                  E-mail of a local account (optional)
                </label>
                <input
                  id="local-email"
                  type="email"
                  className="input w-full"
                  placeholder="Leave empty for the default account"
                  autoComplete="email"
                  maxLength={LOCAL_EMAIL_MAX_LENGTH}
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                  disabled={busy}
                />
              </fieldset>
            )}
            {failure && (
              <div role="alert" className="alert alert-error alert-soft text-sm" data-testid="login-error">
                <span>{failure}</span>
              </div>
            )}
            <p className="text-sm text-base-content/70">
              By clicking login you agree to our terms and{' '}
              <a className="link link-primary" href={PRIVACY_POLICY_URL} target="_blank" rel="noopener noreferrer">
                privacy policy
              </a>
              .
            </p>
            <button type="submit" className="btn btn-primary mt-2" disabled={busy || session.status === 'loading'}>
              {busy && <span className="loading loading-spinner loading-sm" />}
              {local ? LOGIN_LOCAL : LOGIN_WITH_GOOGLE}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
