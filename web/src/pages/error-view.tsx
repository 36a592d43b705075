import { useEffect } from 'react';
import { ErrorNotice } from '../components/error-notice';
import { useContent } from '../content/context';

/**
 * The designed error page: an unknown address (`notFound`) or a page that failed while
 * rendering, drawn in the site's style with the portfolio's brand and a way back. Its links load
 * the pre-rendered page afresh rather than navigating inside an app that just failed. Free of the
 * router, so the landing page's own error boundary shows it too.
 */
export function ErrorView({ notFound }: { notFound: boolean }) {
  const { profile } = useContent();
  useEffect(() => {
    document.title = `${notFound ? 'Page not found' : 'Something went wrong'} · ${profile.name}`;
  }, [notFound, profile.name]);

  return (
    <div className="flex min-h-dvh flex-col bg-gray-950">
      <header className="border-b border-gray-800/80 bg-gray-950">
        <div className="container-page flex h-16 items-center">
          <a href="/" className="inline-flex min-h-11 items-center text-lg font-bold tracking-tight whitespace-nowrap text-white">
            {profile.name}
            <span className="text-blue-500">.</span>
          </a>
        </div>
      </header>
      <main id="main" className="flex flex-1 items-center">
        {notFound ? (
          <ErrorNotice
            label="Error 404"
            title="This page doesn't exist."
            actions={
              <a href="/" className="btn btn-primary">
                Back to the portfolio
              </a>
            }
          >
            <p>The address may be mistyped, or the page may have moved. Everything is on the portfolio's one page.</p>
          </ErrorNotice>
        ) : (
          <ErrorNotice
            label="Error"
            title="Something went wrong on this page."
            actions={
              <>
                <a href="/" className="btn btn-primary">
                  Back to the portfolio
                </a>
                <button type="button" className="btn btn-secondary" onClick={() => window.location.reload()}>
                  Reload the page
                </button>
              </>
            }
          >
            <p>It is not something you did. Reloading often puts it right; the portfolio is one click away.</p>
          </ErrorNotice>
        )}
      </main>
    </div>
  );
}
