import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { ContentProvider } from './content/context';
import { embeddedLocale, LocaleProvider } from './i18n/locale';
import type { ContentDocument } from './content/document.generated';
import { Landing } from './pages/landing';

/**
 * The pre-rendered `/` (or a language's `/de/` …), hydrated without the router: a chunk of its own, which `main.tsx` loads
 * once the first screen is drawn.
 */
export function hydrateLanding(container: HTMLElement, content: ContentDocument): void {
  hydrateRoot(
    container,
    <StrictMode>
      <ContentProvider document={content}>
        <LocaleProvider locale={embeddedLocale()}>
          <Landing />
        </LocaleProvider>
      </ContentProvider>
    </StrictMode>,
  );
}
