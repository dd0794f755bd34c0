/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Privacy policy of this deployment; defaults to the bundled /privacy.html. */
  readonly VITE_PRIVACY_POLICY_URL?: string;
  /** Where the extension can be installed from (uninstall page's install-again button). */
  readonly VITE_EXTENSION_INSTALL_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
