import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { trpc } from '../../lib/trpc';
import { Page } from '../../routes/page';
import { PageLoader } from '../../routes/guards';

/** product.md, Screens: the Settings page's tabs, in order. The chosen tab lives in `?tab=` so it can be linked to. */
const TABS = [
  { id: 'general', label: 'General', Component: lazy(() => import('./general-tab')) },
  { id: 'summary', label: 'Summary', Component: lazy(() => import('./summary-tab')) },
  { id: 'account', label: 'Account', Component: lazy(() => import('./account-tab')) },
  { id: 'tokens', label: 'Access tokens', Component: lazy(() => import('./access-tokens-tab')) },
  { id: 'ai', label: 'AI', Component: lazy(() => import('./ai-tab')) },
] as const;

/** Tabs only the deployment's administrators see (the server refuses the others their data). */
const ADMIN_TABS: ReadonlySet<TabId> = new Set(['ai']);

type TabId = (typeof TABS)[number]['id'];

function isTabId(value: string | null): value is TabId {
  return TABS.some((tab) => tab.id === value);
}

export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  // The AI tab is for administrators: shown once the server answers its status (it refuses others).
  const admin = trpc.localModel.status.useQuery(undefined, { retry: false, meta: { silent: true } }).isSuccess;
  const tabs = TABS.filter((tab) => admin || !ADMIN_TABS.has(tab.id));
  const requested = params.get('tab');
  const active = isTabId(requested) && tabs.some((tab) => tab.id === requested) ? requested : 'general';
  const { Component } = tabs.find((tab) => tab.id === active) ?? TABS[0];

  const choose = (id: TabId) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id === 'general') next.delete('tab');
        else next.set('tab', id);
        return next;
      },
      { replace: true },
    );

  return (
    <Page title="Settings">
      <div role="tablist" aria-label="Settings" className="tabs tabs-border mb-6">
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`settings-tab-${tab.id}`}
            aria-selected={tab.id === active}
            aria-controls="settings-panel"
            className={`tab ${tab.id === active ? 'tab-active' : ''}`}
            onClick={() => choose(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <section id="settings-panel" role="tabpanel" aria-labelledby={`settings-tab-${active}`}>
        <Suspense fallback={<PageLoader />}>
          <Component />
        </Suspense>
      </section>
    </Page>
  );
}
