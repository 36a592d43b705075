import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { router } from './router';
import { startInsights } from './insights/beacon';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to mount into.');

const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);

// `/` arrives pre-rendered (see entry-server.tsx) and is hydrated; every other route arrives as
// an empty shell and is rendered here.
if (container.firstElementChild && window.location.pathname === '/') {
  hydrateRoot(container, app);
} else {
  createRoot(container).render(app);
}

startInsights();
