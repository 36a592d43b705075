import { lazy } from 'react';

/**
 * Projects, experience and the contact form: pre-rendered with the rest, hydrated when their code
 * arrives, so the landing page's first JavaScript holds only what is near the top. The render
 * bundle (vite.render.config.ts) swaps this module for `below-the-fold.static.ts`, so the
 * server's synchronous render draws them instead of the Suspense fallback.
 */
export const BelowTheFold = lazy(() => import('./home-below-the-fold'));
