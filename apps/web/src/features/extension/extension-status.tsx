import { EXTENSION_INSTALL_URL } from '../../lib/links';
import { useExtensionConnection } from './use-extension-connection';

/**
 * Where meetings come from: the extension, and whether it is connected to this server (the handshake's
 * answer). Until it is, a link to the extension page, opened in a new tab so this screen stays and
 * notices the connection.
 */
export function ExtensionStatus() {
  const state = useExtensionConnection();
  if (state === 'checking') {
    return (
      <p className="flex items-center gap-2 text-sm text-base-content/70" role="status" data-testid="extension-status" data-state={state}>
        <span className="loading loading-spinner loading-xs" />
        Looking for the Mbox extension…
      </p>
    );
  }
  if (state === 'connected') {
    return (
      <p className="flex flex-wrap items-center justify-center gap-2 text-sm" role="status" data-testid="extension-status" data-state={state}>
        <span className="badge badge-success">Connected</span>
        The Mbox extension is connected: it sends the captions of your Google Meet calls here.
      </p>
    );
  }
  return (
    <div className="flex flex-col items-center gap-2 text-sm" role="status" data-testid="extension-status" data-state={state}>
      <p>
        {state === 'missing'
          ? 'Meetings arrive through the Mbox extension for Chrome, which reads the captions of your Google Meet calls.'
          : 'The Mbox extension is installed but not connected to this server yet.'}
      </p>
      <a className="btn btn-outline btn-sm" href={EXTENSION_INSTALL_URL} target="_blank" rel="noopener noreferrer">
        {state === 'missing' ? 'Install the extension' : 'Connect the extension'}
      </a>
    </div>
  );
}
