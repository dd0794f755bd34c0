import { Navigate, Outlet, useLocation } from 'react-router';
import { sameOriginRedirectPath } from '@mbox/shared/redirect';
import { useSession } from '../lib/session';

/**
 * The `redirect` query parameter as an in-app path ('subscribe' → '/subscribe'), null when absent, and
 * `/` when it names anything but a path of this app (never another origin: that would be an open redirect).
 */
export function redirectTarget(search: string): string | null {
  const raw = new URLSearchParams(search).get('redirect');
  return raw?.trim() ? sameOriginRedirectPath(raw) : null;
}

/**
 * Where to send someone who must pass `gate` (sign-in, onboarding) before the page they asked for: that
 * page, path and query, travels as the `redirect` parameter, which the gate follows once passed. A query
 * on `/` itself (a referral code, a redirect of its own) travels as it is.
 */
export function throughGate(gate: '/login' | '/onboarding', location: { pathname: string; search: string; hash: string }): string {
  if (location.pathname === '/') return `${gate}${location.search}`;
  return `${gate}?redirect=${encodeURIComponent(`${location.pathname}${location.search}${location.hash}`)}`;
}

export function PageLoader() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" role="status" aria-label="Loading">
      <span className="loading loading-dots loading-lg text-primary" />
    </div>
  );
}

/**
 * The route guards of signed-in pages (docs/product.md, "Route guards"): unauthenticated → /login,
 * keeping the page asked for (path and query); a redirect parameter wins; a user who is not onboarded
 * goes to /onboarding unless already there, keeping the page asked for too. Onboarding follows its own
 * redirect parameter when it is done.
 */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <PageLoader />;
  if (session.status === 'signed-out') return <Navigate to={throughGate('/login', location)} replace />;
  const onOnboarding = location.pathname === '/onboarding' || location.pathname.startsWith('/onboarding/');
  const target = onOnboarding ? null : redirectTarget(location.search);
  if (target) return <Navigate to={target} replace />;
  if (session.onboarded === null) return <PageLoader />;
  if (!session.onboarded && !onOnboarding) return <Navigate to={throughGate('/onboarding', location)} replace />;
  return <Outlet />;
}

/** product.md, Screens: /login is only for users not logged in; a signed-in user goes to the redirect target, or /. */
export function LoginOnly() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <PageLoader />;
  if (session.status === 'signed-in') {
    return <Navigate to={redirectTarget(location.search) ?? `/${location.search}`} replace />;
  }
  return <Outlet />;
}
