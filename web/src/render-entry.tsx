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

/**
 * The HTML of a language's page for its content document given as JSON, and its locale (the
 * `locale` of the page's data, see content/embedded.ts; absent or `null` for the plain English page).
 */
export function renderLanding(documentJson: string, localeJson?: string | null): string {
  const document = JSON.parse(documentJson) as ContentDocument;
  const locale = (localeJson ? (JSON.parse(localeJson) as Locale | null) : null) ?? englishLocale;
  return renderToString(
    <StrictMode>
      <ContentProvider document={document}>
        <LocaleProvider locale={locale}>
          <Landing />
        </LocaleProvider>
      </ContentProvider>
    </StrictMode>,
  );
}

(globalThis as { renderLanding?: typeof renderLanding }).renderLanding = renderLanding;
/** The bundled images' URLs by their document source (`images/avatar-640.webp`), for the server's head. */
(globalThis as { bundledMedia?: Record<string, string> }).bundledMedia = { ...bundled, ...caseStudyBundled };
