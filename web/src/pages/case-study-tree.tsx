import { StrictMode } from 'react';
import { ContentProvider } from '../content/context';
import type { ContentDocument } from '../content/document.generated';
import type { CaseStudyView } from '../content/case-study-view';
import { englishLocale, LocaleProvider, type Locale } from '../i18n/locale';
import { CaseStudyPage } from './case-study';

/**
 * A case study's tree (`/projects/<slug>/`, `/de/projects/<slug>/`): the one tree that the
 * server's pre-rendering draws (`render-entry.tsx`) and the browser hydrates
 * (`hydrate-case-study.tsx`).
 */
export function caseStudyTree(document: ContentDocument, locale: Locale | null | undefined, view: CaseStudyView) {
  return (
    <StrictMode>
      <ContentProvider document={document}>
        <LocaleProvider locale={locale ?? englishLocale}>
          <CaseStudyPage view={view} />
        </LocaleProvider>
      </ContentProvider>
    </StrictMode>
  );
}
