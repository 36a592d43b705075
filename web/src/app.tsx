import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ContentProvider } from './content/context';
import { defaultDocument } from './content/document';
import { router } from './router';

/**
 * Every page but the pre-rendered `/`: the data router, rendered into the empty shell. A chunk of
 * its own, loaded by `main.tsx` only where it is needed.
 */
export function renderApp(container: HTMLElement): void {
  createRoot(container).render(
    <StrictMode>
      <ContentProvider document={defaultDocument}>
        <RouterProvider router={router} />
      </ContentProvider>
    </StrictMode>,
  );
}
