import { hydrateInSlices } from './hydrate-in-slices';
import { ContentProvider } from './content/context';
import { englishLocale, LocaleProvider } from './i18n/locale';
import type { PageData } from './content/embedded';
import { CaseStudyPage } from './pages/case-study';

/**
 * A pre-rendered case study's page (`/projects/<slug>/`, `/de/projects/<slug>/`), hydrated without
 * the router: a chunk of its own, which `main.tsx` loads once the first screen is drawn. The tree
 * is the one `render-entry.tsx`'s `renderCaseStudy` draws.
 */
export function hydrate(container: HTMLElement, { document, locale, caseStudy }: PageData): void {
  if (!caseStudy) throw new Error('the page data has no case study');
  hydrateInSlices(
    container,
    <ContentProvider document={document}>
      <LocaleProvider locale={locale ?? englishLocale}>
        <CaseStudyPage view={caseStudy} />
      </LocaleProvider>
    </ContentProvider>,
  );
}
