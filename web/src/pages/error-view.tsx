import { useEffect } from 'react';
import { ErrorNotice } from '../components/error-notice';
import { useContent } from '../content/context';
import { homeOf, useLocale, useTexts } from '../i18n/locale';

/**
 * The designed error page: an unknown address (`notFound`) or a page that failed while
 * rendering, drawn in the site's style with the portfolio's brand and a way back. Its links load
 * the pre-rendered page afresh rather than navigating inside an app that just failed. Free of the
 * router, so the landing page's own error boundary shows it too.
 */
export function ErrorView({ notFound }: { notFound: boolean }) {
  const { profile } = useContent();
  const texts = useTexts();
  const home = homeOf(useLocale());
  const documentTitle = texts.t(notFound ? 'error.notFound.documentTitle' : 'error.failed.documentTitle');
  useEffect(() => {
    document.title = `${documentTitle} · ${profile.name}`;
  }, [documentTitle, profile.name]);

  return (
    <div className="flex min-h-dvh flex-col bg-gray-950">
      <header className="border-b border-gray-800/80 bg-gray-950">
        <div className="container-page flex h-16 items-center">
          <a href={home} className="inline-flex min-h-11 items-center text-lg font-bold tracking-tight whitespace-nowrap text-white">
            {profile.name}
            <span className="text-blue-500">.</span>
          </a>
        </div>
      </header>
      <main id="main" className="flex flex-1 items-center">
        {notFound ? (
          <ErrorNotice
            label={texts.t('error.notFound.label')}
            title={texts.t('error.notFound.title')}
            actions={
              <a href={home} className="btn btn-primary">
                {texts.t('error.back')}
              </a>
            }
          >
            <p>{texts.t('error.notFound.body')}</p>
          </ErrorNotice>
        ) : (
          <ErrorNotice
            label={texts.t('error.failed.label')}
            title={texts.t('error.failed.title')}
            actions={
              <>
                <a href={home} className="btn btn-primary">
                  {texts.t('error.back')}
                </a>
                <button type="button" className="btn btn-secondary" onClick={() => window.location.reload()}>
                  {texts.t('error.reload')}
                </button>
              </>
            }
          >
            <p>{texts.t('error.failed.body')}</p>
          </ErrorNotice>
        )}
      </main>
    </div>
  );
}
