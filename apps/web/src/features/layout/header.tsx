import { useRef } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { FEEDBACK_URL, SUPPORT_URL } from '../../lib/links';
import { useSession } from '../../lib/session';
import { Logo } from './logo';

interface MenuItem {
  label: string;
  to: string;
  /** Spec §2: an item may be premium-only; none currently is. */
  premiumOnly?: boolean;
  badge?: string;
}

const MAIN_MENU: MenuItem[] = [
  { label: 'Last meetings', to: '/' },
  { label: 'AI Tools', to: '/tools', badge: 'New' },
];

function ExternalItem({ label, href }: { label: string; href: string | null }) {
  if (!href) {
    // A self-hosted instance may not configure these; say so instead of linking somewhere made up.
    return (
      <li className="menu-disabled">
        <span title="Not configured on this server">{label}</span>
      </li>
    );
  }
  return (
    <li>
      <a href={href} target="_blank" rel="noopener noreferrer">
        {label}
      </a>
    </li>
  );
}

export function Header() {
  const session = useSession();
  const navigate = useNavigate();
  const more = useRef<HTMLDetailsElement>(null);
  const closeMore = () => more.current?.removeAttribute('open');

  const logout = async () => {
    await session.logout();
    navigate('/login', { replace: true });
  };

  const items = MAIN_MENU.filter((item) => !item.premiumOnly || session.premium);

  return (
    <header className="navbar border-b border-base-300 bg-base-100 px-4">
      <div className="navbar-start gap-3">
        <Logo />
        {session.premium && <span className="badge badge-warning font-semibold">Premium</span>}
      </div>
      <nav className="navbar-center" aria-label="Main menu">
        <ul className="menu menu-horizontal gap-1 px-1">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.to === '/'} className={({ isActive }) => (isActive ? 'menu-active' : '')}>
                {item.label}
                {item.badge && <span className="badge badge-sm badge-secondary">{item.badge}</span>}
              </NavLink>
            </li>
          ))}
          <li>
            <details ref={more} className="dropdown">
              <summary>More</summary>
              <ul className="menu dropdown-content z-20 w-52 rounded-box bg-base-100 p-2 shadow" onClick={closeMore}>
                <li>
                  <NavLink to="/settings">Settings</NavLink>
                </li>
                <ExternalItem label="Support" href={SUPPORT_URL} />
                <li>
                  <NavLink to="/changelog">ChangeLog</NavLink>
                </li>
                <ExternalItem label="Anonymous feedback" href={FEEDBACK_URL} />
              </ul>
            </details>
          </li>
        </ul>
      </nav>
      <div className="navbar-end gap-2">
        {session.user && (
          <span className="hidden text-sm text-base-content/70 md:inline" title={session.user.email}>
            {session.user.name || session.user.email}
          </span>
        )}
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void logout()}>
          Log out
        </button>
      </div>
    </header>
  );
}
