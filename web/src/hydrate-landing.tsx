import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { ContentProvider } from './content/context';
import type { ContentDocument } from './content/document.generated';
import { Landing } from './pages/landing';

/**
 * The pre-rendered `/`, hydrated without the router: a chunk of its own, which `main.tsx` loads
 * once the first screen is drawn.
 */
export function hydrateLanding(container: HTMLElement, content: ContentDocument): void {
  hydrateRoot(
    container,
    <StrictMode>
      <ContentProvider document={content}>
        <Landing />
      </ContentProvider>
    </StrictMode>,
  );
}
