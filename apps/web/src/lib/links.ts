import type { DeploymentLinks } from '@mbox/shared/auth';
import { trpc } from './trpc';

/**
 * External addresses. Support and feedback are the server's runtime settings (SUPPORT_URL, FEEDBACK_URL,
 * read from auth.config); the others come from build-time env (see vite-env.d.ts).
 */
export const NEW_MEET_URL = 'https://meet.google.com/new';

function configured(value: string | undefined): string | null {
  return value && value.trim() ? value.trim() : null;
}

const NO_LINKS: DeploymentLinks = { support: null, feedback: null };

/** The deployment's support and feedback pages; none until the config has loaded, or when not set. */
export function useDeploymentLinks(): DeploymentLinks {
  // The same cached query the session reads the sign-in mode from.
  const config = trpc.auth.config.useQuery(undefined, { staleTime: Infinity, meta: { silent: true } });
  return config.data?.links ?? NO_LINKS;
}
export const PRIVACY_POLICY_URL = configured(import.meta.env.VITE_PRIVACY_POLICY_URL) ?? '/privacy.html';
/** Defaults to this server's page offering the extension package and the developer-mode steps. */
export const EXTENSION_INSTALL_URL = configured(import.meta.env.VITE_EXTENSION_INSTALL_URL) ?? '/extension';
