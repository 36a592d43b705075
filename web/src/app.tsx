import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ContentProvider } from './content/context';
import { WritingTeaserProvider } from './content/writing-teaser';
import { englishLocale, LocaleProvider } from './i18n/locale';
import type { PageData } from './content/embedded';
import { router } from './router';

/**
 * Every page but the pre-rendered `/`: the data router, rendered into the empty shell. A chunk of
 * its own, loaded by `main.tsx` only where it is needed. The shell's data is its language's page's,
 * with the home page's latest posts (`writing`) when it shows them: the error page's header then
 * leads to the writing index, as the home page's does.
 */
export function renderApp(container: HTMLElement, { document, locale, writing }: PageData): void {
  createRoot(container).render(
    <StrictMode>
      <ContentProvider document={document}>
        <LocaleProvider locale={locale ?? englishLocale}>
          <WritingTeaserProvider value={writing}>
            <RouterProvider router={router} />
          </WritingTeaserProvider>
        </LocaleProvider>
      </ContentProvider>
    </StrictMode>,
  );
}
