import { useEffect } from 'react';
import { CursorDot } from '../components/cursor-dot';
import { ErrorNotice } from '../components/error-notice';
import { Navigation } from '../components/navigation';
import { useContent } from '../content/context';
import { homeOf, useLocale, useTexts } from '../i18n/locale';

/**
 * The designed error page: an unknown address (`notFound`) or a page that failed while
 * rendering, drawn in the site's style with a way back. An unknown address shows the site's
 * navigation and says so in a plain heading, the spec's "Unexpected Application Error!" a small
 * line above it, in the visitor's scheme (the server's error page carries the scheme script); a
 * failure keeps to the portfolio's brand. Its links load the pre-rendered page afresh rather than
 * navigating inside an app that just failed. Free of the router, so the landing page's own error
 * boundary shows it too. It is drawn outside the site's chrome (`SiteChrome`), so it brings the
 * cursor dot itself: the dot is on every page, as the spec asks. An unknown address's header has
 * the Writing item where the home page's has it (`writing`, the writing index's address: see
 * `ErrorPage`).
 */
export function ErrorView({ notFound, writing }: { notFound: boolean; writing?: string }) {
  const { profile, resume, appearance } = useContent();
  const texts = useTexts();
  const home = homeOf(useLocale());
  const documentTitle = texts.t(notFound ? 'error.notFound.documentTitle' : 'error.failed.documentTitle');
  useEffect(() => {
    document.title = `${documentTitle} · ${profile.name}`;
  }, [documentTitle, profile.name]);

  return (
    <div className="flex min-h-dvh flex-col bg-gray-950">
      {notFound ? (
        <>
          <Navigation brand={profile.name} resume={resume.path} sections={appearance.sections} home={home} writing={writing} />
          <main id="main" className="flex flex-1 items-center pt-16">
            <div className="container-page py-20 md:py-28">
              <p className="text-sm font-semibold text-gray-400">{texts.t('error.heading')}</p>
              <h1 className="section-title mt-3">{texts.t('error.notFound.title')}</h1>
              <p className="lead mt-6">{texts.t('error.notFound.body')}</p>
              <a href={home} className="btn btn-primary mt-8">
                {texts.t('error.back')}
              </a>
            </div>
          </main>
        </>
      ) : (
        <>
          <header className="border-b border-gray-800/80 bg-gray-950">
            <div className="container-page flex h-16 items-center">
              <a href={home} className="inline-flex min-h-11 items-center text-lg font-bold tracking-tight whitespace-nowrap text-white">
                <bdi>
                  {profile.name}
                  <span className="text-blue-500">.</span>
                </bdi>
              </a>
            </div>
          </header>
          <main id="main" className="flex flex-1 items-center">
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
          </main>
        </>
      )}
      <CursorDot />
    </div>
  );
}
