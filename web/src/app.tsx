import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ContentProvider } from './content/context';
import { embeddedLocale, LocaleProvider } from './i18n/locale';
import type { ContentDocument } from './content/document.generated';
import { router } from './router';

/**
 * Every page but the pre-rendered `/`: the data router, rendered into the empty shell. A chunk of
 * its own, loaded by `main.tsx` only where it is needed.
 */
export function renderApp(container: HTMLElement, content: ContentDocument): void {
  createRoot(container).render(
    <StrictMode>
      <ContentProvider document={content}>
        <LocaleProvider locale={embeddedLocale()}>
          <RouterProvider router={router} />
        </LocaleProvider>
      </ContentProvider>
    </StrictMode>,
  );
}
