import { TRANSLATION_NEEDS_MODEL } from '@mbox/shared/generation';
import { LANGUAGE_PICK_LIST } from '@mbox/shared/prompts/index';
import { trpc } from '../../lib/trpc';

/** The language picker's entries (product.md, Limits: 29 languages with flags, English, Ukrainian, French, Polish first). */
export function LanguageOptions() {
  return LANGUAGE_PICK_LIST.map((l) => (
    <option key={l.code} value={l.code}>
      {`${l.flag} ${l.name}`}
    </option>
  ));
}

/**
 * Whether translation can be offered: it needs an LLM on the server (summary.capabilities). Unknown
 * (still loading, or the call failed) counts as available: the server still answers with its reason.
 */
export function useTranslationAvailable(): boolean {
  const capabilities = trpc.summary.capabilities.useQuery(undefined, { staleTime: Infinity, meta: { silent: true } });
  return capabilities.data?.llmConfigured ?? true;
}

/** Said where translation would be offered on a server without an AI model. */
export function TranslationNeedsModel({ className = '' }: { className?: string }) {
  return (
    <p className={`text-xs text-base-content/70 ${className}`} role="note" data-testid="translation-needs-model">
      {TRANSLATION_NEEDS_MODEL}
    </p>
  );
}
