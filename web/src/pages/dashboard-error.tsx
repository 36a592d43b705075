import { useRouteLoaderData } from 'react-router';
import type { Owner } from '../api/session';
import { ErrorNotice } from '../components/error-notice';

/**
 * The dashboard's error boundary: a failure while drawing the inbox stays inside the dashboard.
 * The session is left alone (nothing here signs out or forgets the signed-in hint), so reloading
 * brings the inbox back without signing in again.
 */
export function DashboardError() {
  // Present when the session was confirmed before the page failed.
  const owner = useRouteLoaderData('dashboard') as Owner | undefined;

  return (
    <div className="flex min-h-dvh flex-col bg-gray-950">
      <header className="border-b border-gray-800 bg-gray-950">
        <div className="container-page flex h-16 items-center">
          <a href="/" className="rounded-md font-bold tracking-[0.2em] text-white hover:text-blue-300">
            PORTFOLIO
          </a>
        </div>
      </header>
      <main id="main" className="flex flex-1 items-center">
        <ErrorNotice
          label="Dashboard"
          title="Something went wrong on this page."
          actions={
            <>
              <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
                Reload the dashboard
              </button>
              <a href="/" className="btn btn-secondary">
                Back to the portfolio
              </a>
            </>
          }
        >
          <p>
            {owner ? <>You are still signed in as {owner.email}. </> : null}
            Your messages are safe on the server; reloading usually puts the dashboard right.
          </p>
        </ErrorNotice>
      </main>
    </div>
  );
}
