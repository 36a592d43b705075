import { StrictMode } from 'react';
import { ContentProvider } from '../content/context';
import type { ContentDocument } from '../content/document.generated';
import { englishLocale, LocaleProvider, type Locale } from '../i18n/locale';
import { Landing } from './landing';
import { CaseStudyLinks } from '../content/case-study-links';
import { WritingTeaserProvider } from '../content/writing-teaser';
import type { WritingTeaser } from '../content/post-view';

/** What the landing is drawn from: the page's data (content/embedded.ts), absent parts `null`. */
export interface LandingInput {
  document: ContentDocument;
  /** Absent or `null` for the plain English page. */
  locale?: Locale | null;
  /** The case studies its project cards link to, by project. */
  caseStudies?: Readonly<Record<string, string>> | null;
  /** Its latest posts; absent, `null` or without posts: no Writing section and no Writing item in the header. */
  writing?: WritingTeaser | null;
}

/**
 * The landing's tree (`/`, `/de/` …): the one tree that the server's pre-rendering draws
 * (`render-entry.tsx`) and the browser hydrates (`hydrate-landing.tsx`), so the two can never
 * differ (a difference is a hydration error, and the page drawn again on the phone).
 */
export function landingTree({ document, locale, caseStudies, writing }: LandingInput) {
  return (
    <StrictMode>
      <ContentProvider document={document}>
        <LocaleProvider locale={locale ?? englishLocale}>
          <CaseStudyLinks value={caseStudies ?? {}}>
            <WritingTeaserProvider value={writing ?? null}>
              <Landing />
            </WritingTeaserProvider>
          </CaseStudyLinks>
        </LocaleProvider>
      </ContentProvider>
    </StrictMode>
  );
}
