import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { DEFAULT_SERVER_ORIGINS } from '@mbox/shared/handshake';
import { Logo } from '../layout/logo';

/** Served by the server from apps/extension/dist-zip, which `npm run build` fills (apps/extension/build.ts). */
export const EXTENSION_ZIP_URL = '/extension/mbox-extension.zip';

type Availability = 'checking' | 'available' | 'missing';

/** Whether this server has the package: a HEAD request, so the page can say what to do instead of a dead link. */
function useZipAvailability(): Availability {
  const [availability, setAvailability] = useState<Availability>('checking');
  useEffect(() => {
    let active = true;
    fetch(EXTENSION_ZIP_URL, { method: 'HEAD' })
      .then((response) => active && setAvailability(response.ok ? 'available' : 'missing'))
      .catch((error: unknown) => {
        console.warn('[mbox] checking the extension package failed', error);
        if (active) setAvailability('missing');
      });
    return () => {
      active = false;
    };
  }, []);
  return availability;
}

function Step({ number, title, children }: { number: number; title: string; children: React.ReactNode }) {
  return (
    <li className="flex gap-4">
      <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-content">
        {number}
      </span>
      <div className="min-w-0 pt-1">
        <h2 className="font-semibold">{title}</h2>
        <div className="mt-1 text-base-content/70">{children}</div>
      </div>
    </li>
  );
}

/**
 * /extension: download the extension from this server and load it in developer mode, until it is in the
 * Chrome Web Store. Public: people set up the extension before or after signing in.
 */
export default function ExtensionPage() {
  const availability = useZipAvailability();
  const origin = window.location.origin;
  const isDefaultServer = DEFAULT_SERVER_ORIGINS.includes(origin);

  return (
    <div className="flex min-h-full flex-col bg-base-200">
      <header className="navbar border-b border-base-300 bg-base-100 px-4">
        <Logo />
      </header>
      <main className="mx-auto w-full max-w-2xl px-4 py-8 sm:py-12">
        <h1 className="text-3xl font-bold">Install the Mbox extension</h1>
        <p className="mt-2 text-base-content/70">
          The extension reads Google Meet&apos;s live captions and sends them to this server. No audio and no video are
          recorded. Until it is in the Chrome Web Store, install it from here in developer mode.
        </p>

        <div className="card mt-6 bg-base-100 shadow-sm">
          <div className="card-body gap-4 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <p className="font-semibold">Mbox for Chrome</p>
              <p className="text-sm text-base-content/70">A zip file for Chrome, Edge, Brave and other Chromium browsers.</p>
            </div>
            {availability === 'missing' ? (
              <p role="alert" className="text-sm text-error sm:max-w-60">
                This server has no extension package yet. Its administrator builds it with <code>npm run build</code>.
              </p>
            ) : (
              <a
                className={`btn btn-primary ${availability === 'checking' ? 'btn-disabled' : ''}`}
                href={EXTENSION_ZIP_URL}
                download
                aria-disabled={availability === 'checking'}
              >
                Download the extension
              </a>
            )}
          </div>
        </div>

        <ol className="mt-8 flex flex-col gap-6">
          <Step number={1} title="Unzip it">
            Unzip the download into a folder you keep: Chrome loads the extension from that folder every time it starts.
          </Step>
          <Step number={2} title="Switch on developer mode">
            Open <code className="select-all">chrome://extensions</code> in a new tab and switch on <em>Developer mode</em>{' '}
            in the top right corner.
          </Step>
          <Step number={3} title="Load it">
            Choose <em>Load unpacked</em> and pick the unzipped folder. Pin Mbox from the puzzle icon in the toolbar to
            keep it in reach.
          </Step>
          {!isDefaultServer && (
            <Step number={4} title="Connect it to this server">
              Click the Mbox icon, enter <code className="select-all break-all">{origin}</code> as the server and choose{' '}
              <em>Save</em>, then allow access when Chrome asks.
            </Step>
          )}
          <Step number={isDefaultServer ? 4 : 5} title="Sign in">
            <Link to="/" className="link link-primary">
              Open Mbox
            </Link>{' '}
            and log in: the extension receives your account. Then join a Meet call and turn on captions (CC).
          </Step>
        </ol>
      </main>
    </div>
  );
}
