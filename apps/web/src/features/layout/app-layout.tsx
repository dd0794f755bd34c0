import { Outlet } from 'react-router';
import { Header } from './header';

/** Signed-in pages: header on top, the page fills the rest of the viewport. */
export function AppLayout() {
  return (
    <div className="flex h-full flex-col bg-base-200">
      <Header />
      <main className="min-h-0 flex-1 overflow-auto">
        <Outlet />
      </main>
    </div>
  );
}
