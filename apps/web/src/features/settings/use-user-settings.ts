import { useCallback } from 'react';
import { changedSettings, type UserSettings, type UserSettingsUpdate } from '@mbox/shared/user-settings';
import { SETTINGS_UPDATED } from '@mbox/shared/ui-messages';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

export interface UserSettingsState {
  /** The cached settings; undefined while the first fetch runs. */
  settings: UserSettings | undefined;
  loading: boolean;
  /** The first fetch failed (logged only, as the session's read of the same query is). */
  failed: boolean;
  /** True while an update is on its way: the form disables its fields meanwhile (product.md, States). */
  saving: boolean;
  /**
   * Sends the fields of `next` that differ from the cached settings (nothing changed → no call,
   * answers null). On success the cache takes the saved settings and 'Settings updated' shows.
   * A failed save is only logged (product.md, Errors) and answers null.
   */
  save: (next: UserSettingsUpdate) => Promise<UserSettings | null>;
}

/**
 * The one settings cache of the web app (product.md, States): fetched once (the same query the session reads the
 * premium and onboarding state from), replaced by the server's answer after a successful update.
 * Every settings tab reads and saves through this hook.
 */
export function useUserSettings(): UserSettingsState {
  const utils = trpc.useUtils();
  const query = trpc.settings.get.useQuery(undefined, { staleTime: Infinity, meta: { silent: true } });
  const update = trpc.settings.update.useMutation({ meta: { silent: true } });
  const { mutateAsync } = update;
  const current = query.data;

  const save = useCallback(
    async (next: UserSettingsUpdate): Promise<UserSettings | null> => {
      if (!current) return null;
      const changes = changedSettings(current, next);
      if (Object.keys(changes).length === 0) return null;
      try {
        const saved = await mutateAsync(changes);
        utils.settings.get.setData(undefined, saved);
        toast.success(SETTINGS_UPDATED);
        return saved;
      } catch {
        // Already logged by the shared handler (silent: product.md, Errors shows no error for a failed save).
        return null;
      }
    },
    [current, mutateAsync, utils],
  );

  return { settings: current, loading: query.isPending, failed: query.isError, saving: update.isPending, save };
}
