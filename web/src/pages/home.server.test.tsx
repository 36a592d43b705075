// @vitest-environment node
/**
 * The landing page renders to HTML without a browser (no window, document or navigator), as the
 * build's pre-renderer needs: every section is in the markup, and the browser-only pieces
 * (cursor dot, in-app banner, animated typewriter text) are not.
 */
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { describe, expect, test } from 'vitest';
import { routes } from '../routes';
import { profile } from '../content/profile';

async function render(path: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`unexpected response ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} />);
}

describe('the landing page on the server', () => {
  test('renders every section, in order, with no browser globals', async () => {
    expect(typeof window).toBe('undefined');
    const html = await render('/');
    const ids = [...html.matchAll(/<section[^>]* id="([a-z]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['home', 'about', 'skills', 'projects', 'experience', 'contact']);
    expect(html).toContain(`Hi, I&#x27;m <span class="text-blue-500">${profile.name}</span>`);
    expect(html).toContain('<footer');
    expect(html).toContain('aria-current="true"');
  });

  test('leaves the browser-only pieces to the client', async () => {
    const html = await render('/');
    expect(html).not.toContain('data-cursor-dot');
    expect(html).not.toContain('Open in your browser');
    // The typewriter starts empty; the phrases are there once, for screen readers.
    expect(html).toContain(profile.typewriterPhrases.join(', '));
    expect(html).not.toContain('typewriter-static');
  });

  test('renders the same markup every time (nothing random)', async () => {
    expect(await render('/')).toBe(await render('/'));
  });
});
