import { useCallback } from 'react';
import { aiGenerationsLeftText } from '@mbox/shared/ai-usage';
import { useSession } from '../../lib/session';
import { trpc } from '../../lib/trpc';

/**
 * What is left of a free account's AI generations today ("7 of 10 AI summaries left today"), shown
 * beside the buttons that spend one. Nothing for premium accounts, or when the server does not
 * limit generations (its offline engine, uncounted).
 */
export function AiUsageNote({ className = '' }: { className?: string }) {
  const { premium } = useSession();
  const usage = trpc.aiUsage.today.useQuery(undefined, { enabled: !premium, meta: { silent: true } });
  const text = !premium && usage.data ? aiGenerationsLeftText(usage.data) : null;
  if (!text) return null;
  return (
    <p className={`text-xs text-base-content/70 ${className}`} data-testid="ai-usage-left" aria-live="polite">
      {text}
    </p>
  );
}

/** Reads today's count again: after every generation, refused or not, so the note stays true. */
export function useRefreshAiUsage(): () => void {
  const utils = trpc.useUtils();
  return useCallback(() => void utils.aiUsage.today.invalidate(), [utils]);
}
