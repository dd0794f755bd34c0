import { useEffect, useRef } from 'react';
import { EXTENSION_INSTALL_URL } from '../lib/links';
import { useSession } from '../lib/session';

/** /uninstall (product.md, Screens): the extension opens it when removed; it logs the user out and says goodbye. */
export default function UninstallPage() {
  const session = useSession();
  const { logout, status } = session;
  const done = useRef(false);
  useEffect(() => {
    if (done.current || status === 'loading') return;
    done.current = true;
    if (status === 'signed-in') void logout();
  }, [logout, status]);

  return (
    <div className="hero min-h-full bg-base-200">
      <div className="hero-content text-center">
        <div className="max-w-md">
          <h1 className="text-4xl font-bold">Goodbye from Mbox</h1>
          <p className="py-6">
            The Mbox extension was removed and you are logged out. Your meetings stay on this server until you delete
            them.
          </p>
          <a className="btn btn-primary" href={EXTENSION_INSTALL_URL} target="_blank" rel="noopener noreferrer">
            Install again
          </a>
        </div>
      </div>
    </div>
  );
}
