import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ContentProvider } from './content/context';
import { englishLocale, LocaleProvider } from './i18n/locale';
import type { PageData } from './content/embedded';
import { router } from './router';

/**
 * Every page but the pre-rendered `/`: the data router, rendered into the empty shell. A chunk of
 * its own, loaded by `main.tsx` only where it is needed.
 */
export function renderApp(container: HTMLElement, { document, locale }: PageData): void {
  createRoot(container).render(
    <StrictMode>
      <ContentProvider document={document}>
        <LocaleProvider locale={locale ?? englishLocale}>
          <RouterProvider router={router} />
        </LocaleProvider>
      </ContentProvider>
    </StrictMode>,
  );
}
