// @vitest-environment node
/**
 * The landing page renders to HTML without a browser (no window, document or navigator), as the
 * build's pre-renderer needs: every section is in the markup, and the browser-only pieces
 * (cursor dot, in-app banner, animated typewriter text) are not.
 */
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { describe, expect, test, vi } from 'vitest';
import { renderLanding } from '../render-entry';
import { routes } from '../routes';
import { ContentProvider } from '../content/context';
import { defaultDocument } from '../content/document';

const profile = defaultDocument.profile;
const phrases = defaultDocument.typewriterPhrases;
const json = JSON.stringify(defaultDocument);
const render = async (url: string) => {
  expect(url).toBe('/');
  return renderLanding(json);
};

// As in the render bundle (vite.render.config.ts): the lazily hydrated sections imported statically.
vi.mock('./below-the-fold', async () => import('./below-the-fold.static'));

describe('the landing page on the server', () => {
  test('draws what the document says: another name is the one shown', async () => {
    const renamed = { ...defaultDocument, profile: { ...profile, name: 'Robin Quill' } };
    const html = renderLanding(JSON.stringify(renamed));
    expect(html).toContain('Hi, I&#x27;m <bdi class="p-name text-blue-500">Robin Quill</bdi>');
    expect(html).not.toContain(`<bdi class="p-name text-blue-500">${profile.name}</bdi>`);
    expect(html).not.toContain(`>${profile.name}</a>`);
  });

  test('renders every section, in order, with no browser globals', async () => {
    expect(typeof window).toBe('undefined');
    const html = await render('/');
    const ids = [...html.matchAll(/<section[^>]* id="([a-z]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['home', 'about', 'skills', 'projects', 'experience', 'contact']);
    expect(html).toContain(`Hi, I&#x27;m <bdi class="p-name text-blue-500">${profile.name}</bdi>`);
    expect(html).toContain('<footer');
    expect(html).toContain('aria-current="true"');
  });

  test('leaves the browser-only pieces to the client', async () => {
    const html = await render('/');
    expect(html).not.toContain('data-cursor-dot');
    expect(html).not.toContain('Open in your browser');
    // The typewriter starts empty; the phrases are there for screen readers, and the still
    // version for reduced motion is in the HTML too, shown or hidden by CSS alone.
    expect(html).toContain(phrases.join(', '));
    expect(html).toContain('motion-safe:hidden');
    expect(html).toMatch(/data-testid="typewriter"[^>]*><\/span>/);
  });

  test('renders the same markup every time (nothing random)', async () => {
    expect(await render('/')).toBe(await render('/'));
  });

  test('is whole HTML: the lazily hydrated sections are inline, with no script to reveal them', async () => {
    const html = await render('/');
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/<div hidden id="S:/);
  });

  test('matches what the router draws at / (the landing is hydrated without it)', async () => {
    const handler = createStaticHandler(routes);
    const context = await handler.query(new Request('http://localhost/'));
    if (context instanceof Response) throw new Error(`unexpected response ${context.status}`);
    const router = createStaticRouter(handler.dataRoutes, context);
    const routed = renderToString(
      <ContentProvider document={defaultDocument}>
        <StaticRouterProvider router={router} context={context} />
      </ContentProvider>,
    );
    const sections = (html: string) => [...html.matchAll(/<(?:section|footer|nav)[^>]*>/g)].map((m) => m[0]);
    // renderToString leaves the lazy sections to the client; the ones it draws are the same.
    const landing = sections(await render('/'));
    expect(sections(routed).every((tag) => landing.includes(tag))).toBe(true);
  });
});
