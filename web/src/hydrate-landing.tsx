import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { ContentProvider } from './content/context';
import { defaultDocument } from './content/document';
import { Landing } from './pages/landing';

/**
 * The pre-rendered `/`, hydrated without the router: a chunk of its own, which `main.tsx` loads
 * once the first screen is drawn.
 */
export function hydrateLanding(container: HTMLElement): void {
  hydrateRoot(
    container,
    <StrictMode>
      <ContentProvider document={defaultDocument}>
        <Landing />
      </ContentProvider>
    </StrictMode>,
  );
}
