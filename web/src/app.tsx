import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ContentProvider } from './content/context';
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
        <RouterProvider router={router} />
      </ContentProvider>
    </StrictMode>,
  );
}
