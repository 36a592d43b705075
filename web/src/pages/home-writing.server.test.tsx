// @vitest-environment node
/**
 * The home page's Writing section, drawn by the render bundle's `renderLanding` with the teaser
 * the server gives (its 4th argument): after Projects, with the header's Writing item, only when
 * there are posts; nothing at all otherwise.
 */
import { describe, expect, test, vi } from 'vitest';
import { renderLanding } from '../render-entry';
import { defaultDocument } from '../content/document';
import type { WritingTeaser } from '../content/post-view';

// As in the render bundle (vite.render.config.ts): the lazily hydrated sections imported statically.
vi.mock('./below-the-fold', async () => import('./below-the-fold.static'));

const json = JSON.stringify(defaultDocument);
const teaser: WritingTeaser = {
  writing: '/writing/',
  posts: [
    {
      id: 'hello',
      title: 'Hello, writing',
      summary: 'The first post.',
      path: '/writing/hello/',
      published: { iso: '2025-03-05T09:00:00Z', text: '5 March 2025' },
      readingTime: '4 min read',
      tags: [],
    },
  ],
};
const sectionIds = (html: string) => [...html.matchAll(/<section[^>]* id="([a-z]+)"/g)].map((m) => m[1]);

describe("the home page's Writing section", () => {
  test('follows Projects when there are posts: their titles, days and summaries, and a link to all', () => {
    const html = renderLanding(json, null, null, JSON.stringify(teaser));
    expect(sectionIds(html)).toEqual(['home', 'about', 'skills', 'projects', 'writing', 'experience', 'contact']);
    const section = /<section[^>]* id="writing"[\s\S]*?<\/section>/.exec(html)![0];
    expect(section).toContain('<h2 id="writing-title" class="section-title">Writing</h2>');
    expect(section).toContain('href="/writing/hello/"');
    expect(section).toContain('>Hello, writing</a>');
    expect(section).toContain('<time dateTime="2025-03-05T09:00:00Z">5 March 2025</time>');
    expect(section).toContain('The first post.');
    expect(section).toMatch(/<a href="\/writing\/"[^>]*>All posts<\/a>/);
    // The header's item after the sections', never the current one.
    expect(html).toMatch(/href="#contact"[\s\S]*?<a href="\/writing\/" class="[^"]*">Writing<\/a>/);
  });

  test('is not there at all without posts: no heading, no header item', () => {
    for (const writing of [undefined, null, JSON.stringify(null), JSON.stringify({ ...teaser, posts: [] })]) {
      const html = renderLanding(json, null, null, writing);
      expect(sectionIds(html)).not.toContain('writing');
      expect(html).not.toContain('/writing/');
      expect(html).not.toContain('>Writing<');
    }
  });
});
