/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** External support page (spec §2 More menu: Support, opens in a new tab). */
  readonly VITE_SUPPORT_URL?: string;
  /** External anonymous feedback form (spec §2 More menu: Anonymous feedback). */
  readonly VITE_FEEDBACK_URL?: string;
  /** Privacy policy of this deployment; defaults to the bundled /privacy.html. */
  readonly VITE_PRIVACY_POLICY_URL?: string;
  /** Where the extension can be installed from (uninstall page's install-again button). */
  readonly VITE_EXTENSION_INSTALL_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
