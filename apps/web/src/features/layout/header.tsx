import { useRef } from 'react';
import { NavLink, useMatches, useNavigate } from 'react-router';
import { useDeploymentLinks } from '../../lib/links';
import { useSession } from '../../lib/session';
import { HeaderAsk } from '../ask/header-ask';
import { HeaderSearch } from '../search/header-search';
import { Logo } from './logo';

interface MenuItem {
  label: string;
  to: string;
  /** product.md, Screens: an item may be premium-only; none currently is. */
  premiumOnly?: boolean;
  badge?: string;
}

const MAIN_MENU: MenuItem[] = [
  { label: 'Last meetings', to: '/' },
  { label: 'Action items', to: '/action-items' },
  { label: 'AI Tools', to: '/tools', badge: 'New' },
];

/** An external page of the deployment, in a new tab; left out when the server does not set one. */
function ExternalItem({ label, href }: { label: string; href: string | null }) {
  if (!href) return null;
  return (
    <li>
      <a href={href} target="_blank" rel="noopener noreferrer">
        {label}
      </a>
    </li>
  );
}

/** product.md, Screens 'More' entries, shared by the desktop dropdown and the phone menu. */
function MoreItems() {
  const links = useDeploymentLinks();
  return (
    <>
      <li>
        <NavLink to="/settings">Settings</NavLink>
      </li>
      <ExternalItem label="Support" href={links.support} />
      <li>
        <NavLink to="/changelog">ChangeLog</NavLink>
      </li>
      <ExternalItem label="Anonymous feedback" href={links.feedback} />
    </>
  );
}

function MenuIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
      <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
    </svg>
  );
}

/** A route's `handle` naming the menu item its pages belong to, when that is not its own path. */
export interface MenuHandle {
  menuItem: string;
}

function isMenuHandle(handle: unknown): handle is MenuHandle {
  return typeof handle === 'object' && handle !== null && 'menuItem' in handle && typeof handle.menuItem === 'string';
}

/** The main menu's entries: in the bar on wide screens, in the menu button's dropdown on phones. */
function MainMenuItems({ items }: { items: readonly MenuItem[] }) {
  const owner = useMatches()
    .map((match) => match.handle)
    .findLast(isMenuHandle);
  return items.map((item) => (
    <li key={item.to}>
      <NavLink
        to={item.to}
        end={item.to === '/'}
        className={({ isActive }) => (isActive || owner?.menuItem === item.to ? 'menu-active' : '')}
      >
        {item.label}
        {item.badge && <span className="badge badge-sm badge-secondary">{item.badge}</span>}
      </NavLink>
    </li>
  ));
}

export function Header() {
  const session = useSession();
  const navigate = useNavigate();
  const more = useRef<HTMLDetailsElement>(null);
  const closeMore = () => more.current?.removeAttribute('open');
  const phoneMenu = useRef<HTMLDetailsElement>(null);
  const closePhoneMenu = () => phoneMenu.current?.removeAttribute('open');

  const logout = async () => {
    await session.logout();
    navigate('/login', { replace: true });
  };

  const items = MAIN_MENU.filter((item) => !item.premiumOnly || session.premium);

  return (
    <header className="navbar border-b border-base-300 bg-base-100 px-2 sm:px-4">
      <div className="navbar-start w-auto min-w-0 flex-1 gap-1 sm:gap-3">
        {/* Below md the main menu and More collapse into one dropdown. */}
        <details ref={phoneMenu} className="dropdown md:hidden">
          <summary className="btn btn-ghost btn-square btn-sm" aria-label="Open menu">
            <MenuIcon />
          </summary>
          <ul
            className="menu dropdown-content z-30 mt-2 w-56 rounded-box border border-base-300 bg-base-100 p-2 shadow-lg"
            onClick={closePhoneMenu}
          >
            <MainMenuItems items={items} />
            <MoreItems />
          </ul>
        </details>
        <div className="shrink-0">
          <Logo />
        </div>
        {session.premium && <span className="badge badge-warning badge-sm ml-1 font-semibold sm:ml-0 sm:badge-md">Premium</span>}
      </div>
      <nav className="navbar-center hidden md:flex" aria-label="Main menu">
        <ul className="menu menu-horizontal gap-1 px-1">
          <MainMenuItems items={items} />
          <li>
            <details ref={more} className="dropdown">
              <summary>More</summary>
              <ul className="menu dropdown-content z-20 w-52 rounded-box bg-base-100 p-2 shadow" onClick={closeMore}>
                <MoreItems />
              </ul>
            </details>
          </li>
        </ul>
      </nav>
      {/* Start and end share what the centred menu leaves, so the bar never gets wider than the screen. */}
      <div className="navbar-end w-auto min-w-0 shrink-0 gap-2 md:flex-1">
        <HeaderSearch />
        <HeaderAsk />
        {/* The account's name only where it fits whole (at 1280 px the bar left it three letters); Log out names it on hover. */}
        {session.user && (
          <span className="hidden min-w-0 max-w-48 truncate text-sm text-base-content/70 2xl:inline" title={session.user.email}>
            {session.user.name || session.user.email}
          </span>
        )}
        <button
          type="button"
          className="btn btn-outline btn-sm"
          title={session.user ? `Signed in as ${session.user.email}` : undefined}
          onClick={() => void logout()}
        >
          Log out
        </button>
      </div>
    </header>
  );
}
