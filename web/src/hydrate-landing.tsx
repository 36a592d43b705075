import { hydrateInSlices } from './hydrate-in-slices';
import { ContentProvider } from './content/context';
import { englishLocale, LocaleProvider } from './i18n/locale';
import type { PageData } from './content/embedded';
import { Landing } from './pages/landing';
import { CaseStudyLinks } from './content/case-study-links';
import { WritingTeaserProvider } from './content/writing-teaser';

/**
 * The pre-rendered `/` (or a language's `/de/` …), hydrated without the router: a chunk of its own, which `main.tsx` loads
 * once the first screen is drawn.
 */
export function hydrate(container: HTMLElement, { document, locale, caseStudies, writing }: PageData): void {
  hydrateInSlices(
    container,
    <ContentProvider document={document}>
      <LocaleProvider locale={locale ?? englishLocale}>
        <CaseStudyLinks value={caseStudies ?? {}}>
          <WritingTeaserProvider value={writing}>
            <Landing />
          </WritingTeaserProvider>
        </CaseStudyLinks>
      </LocaleProvider>
    </ContentProvider>,
  );
}
