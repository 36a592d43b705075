import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { Landing } from './pages/landing';
import { startInsights } from './insights/beacon';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to mount into.');

// `/` arrives pre-rendered (see entry-server.tsx) and is hydrated without the router. Every other
// route arrives as an empty shell and is rendered by the router, a chunk loaded only then.
if (container.firstElementChild && window.location.pathname === '/') {
  hydrateRoot(
    container,
    <StrictMode>
      <Landing />
    </StrictMode>,
  );
} else {
  const root = container;
  void import('./app').then(({ renderApp }) => renderApp(root));
}

startInsights();
