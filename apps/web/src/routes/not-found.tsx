import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Logo } from '../features/layout/logo';

function ErrorScreen({ code, title, text }: { code?: string; title: string; text: string }) {
  return (
    <div className="flex min-h-full flex-col bg-base-200">
      <header className="navbar border-b border-base-300 bg-base-100 px-4">
        <Logo />
      </header>
      <main className="flex flex-1 items-center justify-center p-6">
        <div className="flex max-w-md flex-col items-center gap-4 text-center">
          {code && (
            <p className="text-6xl font-bold text-primary/30" aria-hidden="true">
              {code}
            </p>
          )}
          <h1 className="text-3xl font-bold">{title}</h1>
          <p className="text-base-content/70">{text}</p>
          {/* A full load, not a client navigation: after a render error the app state may be broken. */}
          <Link to="/" className="btn btn-primary" reloadDocument>
            Go to home page
          </Link>
        </div>
      </main>
    </div>
  );
}

/** Any address the route table does not know (product.md, Screens has no such route; never the router's developer screen). */
export default function NotFoundPage() {
  return <ErrorScreen code="404" title="Page not found" text="The page you are looking for does not exist or has moved." />;
}

/** The router's errorElement: a 404 from the router reads as not found, anything else as a failure. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error('[mbox] page failed to render', error);
  return <ErrorScreen title="Something went wrong" text="Some error occur. Try again later" />;
}
