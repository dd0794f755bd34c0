import { Link, NavLink, Outlet } from 'react-router';
import { useSession } from '../../lib/session';
import { Logo } from './logo';

/** Spec §2 public header: Utils menu, Premium badge, and 'MBox App' when logged in, otherwise 'Log in'. */
export function PublicLayout() {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  return (
    <div className="flex min-h-full flex-col bg-base-200">
      <header className="navbar border-b border-base-300 bg-base-100 px-4">
        <div className="navbar-start gap-3">
          <Logo to="/public" />
          {signedIn && session.premium && <span className="badge badge-warning font-semibold">Premium</span>}
        </div>
        <nav className="navbar-center" aria-label="Utils">
          <ul className="menu menu-horizontal px-1">
            <li>
              <details className="dropdown">
                <summary>Utils</summary>
                <ul className="menu dropdown-content z-20 w-48 rounded-box bg-base-100 p-2 shadow">
                  <li>
                    <NavLink to="/public/summarization">Text summary</NavLink>
                  </li>
                  <li>
                    <NavLink to="/public/youtube">YouTube summary</NavLink>
                  </li>
                </ul>
              </details>
            </li>
          </ul>
        </nav>
        <div className="navbar-end">
          <Link to={signedIn ? '/' : '/login'} className="btn btn-primary btn-sm">
            {signedIn ? 'MBox App' : 'Log in'}
          </Link>
        </div>
      </header>
      <main className="flex-1">
        <Outlet />
      </main>
    </div>
  );
}
