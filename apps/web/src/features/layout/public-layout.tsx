import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useSession } from '../../lib/session';
import { Logo } from './logo';

const UTILS = [
  { label: 'Text summary', to: '/public/summarization' },
  { label: 'YouTube summary', to: '/public/youtube' },
] as const;

/** The Utils dropdown; it closes on a choice, on navigation and on a click elsewhere. */
function UtilsMenu() {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const close = () => menu.current?.removeAttribute('open');

  useEffect(close, [location.pathname]);
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      if (menu.current && !menu.current.contains(event.target as Node)) close();
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, []);

  return (
    <details ref={menu} className="dropdown dropdown-end sm:dropdown-start">
      <summary className="btn btn-ghost btn-sm gap-1 px-2 sm:px-3">
        Utils
        <svg viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4 opacity-60" aria-hidden="true">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
        </svg>
      </summary>
      <ul className="menu dropdown-content z-30 mt-2 w-52 rounded-box border border-base-300 bg-base-100 p-2 shadow-lg">
        {UTILS.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} onClick={close} className={({ isActive }) => (isActive ? 'menu-active' : '')}>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** product.md, Screens public header: Utils menu, Premium badge, and 'MBox App' when logged in, otherwise 'Log in'. */
export function PublicLayout() {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  return (
    <div className="flex min-h-full flex-col bg-base-200">
      <header className="sticky top-0 z-20 border-b border-base-300 bg-base-100/95 backdrop-blur">
        <div className="mx-auto flex h-16 w-full max-w-5xl items-center gap-2 px-4 sm:gap-4 sm:px-6">
          <Logo to="/public" />
          {signedIn && session.premium && <span className="badge badge-warning badge-sm font-semibold sm:badge-md">Premium</span>}
          <nav aria-label="Utils" className="ml-auto sm:ml-4 sm:mr-auto">
            <UtilsMenu />
          </nav>
          {session.status === 'loading' ? (
            <span className="skeleton h-8 w-20" aria-hidden="true" />
          ) : (
            <Link to={signedIn ? '/' : '/login'} className="btn btn-primary btn-sm">
              {signedIn ? 'MBox App' : 'Log in'}
            </Link>
          )}
        </div>
      </header>
      <main className="flex-1">
        <Outlet />
      </main>
      <footer className="border-t border-base-300 py-6 text-center text-sm text-base-content/70">
        <span>Mbox — smart your meetings</span>
        <span className="mx-2">·</span>
        <a href="/privacy.html" className="link link-hover">
          Privacy policy
        </a>
      </footer>
    </div>
  );
}
