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

export function PageLoader() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" role="status" aria-label="Loading">
      <span className="loading loading-dots loading-lg text-primary" />
    </div>
  );
}

/**
 * Spec §2 route guards for signed-in pages: unauthenticated → /login (query string kept); a redirect
 * parameter wins; a user who is not onboarded goes to /onboarding unless already there.
 */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <PageLoader />;
  if (session.status === 'signed-out') return <Navigate to={`/login${location.search}`} replace />;
  const target = redirectTarget(location.search);
  if (target) return <Navigate to={target} replace />;
  if (session.onboarded === null) return <PageLoader />;
  const onOnboarding = location.pathname === '/onboarding' || location.pathname.startsWith('/onboarding/');
  // The query travels along: a referral link's code must reach onboarding through /login.
  if (!session.onboarded && !onOnboarding) return <Navigate to={`/onboarding${location.search}`} replace />;
  return <Outlet />;
}

/** Spec §2: /login is only for users not logged in; a signed-in user goes to the redirect target, or /. */
export function LoginOnly() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <PageLoader />;
  if (session.status === 'signed-in') {
    return <Navigate to={redirectTarget(location.search) ?? `/${location.search}`} replace />;
  }
  return <Outlet />;
}
