/**
 * The one renderer of `/`: the build runs it in Node (scripts/prerender.mjs) for the default
 * document, the server in QuickJS (server/src/content/render.rs) for the published one, so both
 * draw the same HTML from the same document. Bundled by `vite.render.config.ts` as one
 * self-contained script that sets `globalThis.renderLanding`; never served to browsers.
 * The tree is the one `hydrate-landing.tsx` hydrates (StrictMode, the provider, the landing page,
 * without the router), so `useId` values and markup match.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server.browser';
import { ContentProvider } from './content/context';
import { englishLocale, LocaleProvider, type Locale } from './i18n/locale';
import { caseStudyBundled } from './content/case-study-media';
import { bundled } from './content/media';
import type { ContentDocument } from './content/document.generated';
import { Landing } from './pages/landing';
import { CaseStudyPage } from './pages/case-study';
import { CaseStudyLinks } from './content/case-study-links';
import type { PageData } from './content/embedded';

/**
 * The HTML of a language's page for its content document given as JSON, its locale (the
 * `locale` of the page's data, see content/embedded.ts; absent or `null` for the plain English
 * page) and the case studies its project cards link to (absent or `null`: none).
 */
export function renderLanding(documentJson: string, localeJson?: string | null, caseStudiesJson?: string | null): string {
  const document = JSON.parse(documentJson) as ContentDocument;
  const locale = (localeJson ? (JSON.parse(localeJson) as Locale | null) : null) ?? englishLocale;
  const links = caseStudiesJson ? (JSON.parse(caseStudiesJson) as Record<string, string> | null) : null;
  return renderToString(
    <StrictMode>
      <ContentProvider document={document}>
        <LocaleProvider locale={locale}>
          <CaseStudyLinks value={links ?? {}}>
            <Landing />
          </CaseStudyLinks>
        </LocaleProvider>
      </ContentProvider>
    </StrictMode>,
  );
}

/**
 * The HTML of a case study's page for its page data given as JSON (`{document, locale, caseStudy}`,
 * see content/embedded.ts): the tree `hydrate-case-study.tsx` hydrates.
 */
export function renderCaseStudy(pageDataJson: string): string {
  const { document, locale, caseStudy } = JSON.parse(pageDataJson) as PageData;
  if (!caseStudy) throw new Error('the page data has no case study');
  return renderToString(
    <StrictMode>
      <ContentProvider document={document}>
        <LocaleProvider locale={locale ?? englishLocale}>
          <CaseStudyPage view={caseStudy} />
        </LocaleProvider>
      </ContentProvider>
    </StrictMode>,
  );
}

(globalThis as { renderLanding?: typeof renderLanding }).renderLanding = renderLanding;
(globalThis as { renderCaseStudy?: typeof renderCaseStudy }).renderCaseStudy = renderCaseStudy;
/** The bundled images' URLs by their document source (`images/avatar-640.webp`), for the server's head. */
(globalThis as { bundledMedia?: Record<string, string> }).bundledMedia = { ...bundled, ...caseStudyBundled };
