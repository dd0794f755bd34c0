/** External addresses. The deployment-specific ones come from build-time env (see vite-env.d.ts). */
export const NEW_MEET_URL = 'https://meet.google.com/new';

function configured(value: string | undefined): string | null {
  return value && value.trim() ? value.trim() : null;
}

/** Not set by default: a self-hosted instance has no support desk or feedback form of ours. */
export const SUPPORT_URL = configured(import.meta.env.VITE_SUPPORT_URL);
export const FEEDBACK_URL = configured(import.meta.env.VITE_FEEDBACK_URL);
export const PRIVACY_POLICY_URL = configured(import.meta.env.VITE_PRIVACY_POLICY_URL) ?? '/privacy.html';
/** Defaults to this server's page offering the extension package and the developer-mode steps. */
export const EXTENSION_INSTALL_URL = configured(import.meta.env.VITE_EXTENSION_INSTALL_URL) ?? '/extension';
