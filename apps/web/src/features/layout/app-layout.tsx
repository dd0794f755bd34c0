import { Outlet } from 'react-router';
import { Header } from './header';

/** Signed-in pages: header on top, the page fills the rest of the viewport. */
export function AppLayout() {
  return (
    <div className="flex h-full flex-col bg-base-200">
      <Header />
      {/* Focusable: a page with nothing to tab to (the changelog) still scrolls from the keyboard. */}
      <main className="min-h-0 flex-1 overflow-auto" tabIndex={0}>
        <Outlet />
      </main>
    </div>
  );
}
