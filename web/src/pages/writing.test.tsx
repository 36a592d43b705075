/**
 * A post's page and the writing index's pages in jsdom, drawn from views as the server makes them
 * (content/post-view.ts): what each shows, its links and what screen readers are told.
 */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ContentProvider } from '../content/context';
import { defaultDocument } from '../content/document';
import type { PageData } from '../content/embedded';
import type { PostSummaryView, PostView, WritingView } from '../content/post-view';
import { hydrate } from '../hydrate-post';
import { renderPost, renderWriting } from '../render-entry';
import { PostPage } from './post';
import { WritingPage } from './writing';

const published = { iso: '2025-03-05T09:00:00Z', text: '5 March 2025' };
const tags = [
  { name: 'rust', path: '/writing/tags/rust/' },
  { name: 'web', path: '/writing/tags/web/' },
];

const post: PostView = {
  id: 'hello',
  title: 'Hello, writing',
  summary: 'The first post, in a sentence.',
  path: '/writing/hello/',
  home: '/',
  writing: '/writing/',
  html:
    '<p>Some <code>code</code>.</p>\n<h2 id="one">One<a class="anchor" href="#one" aria-label="Link to this section">#</a></h2>\n' +
    '<h3 id="one-more">One more<a class="anchor" href="#one-more" aria-label="Link to this section">#</a></h3>\n' +
    '<h2 id="two">Two<a class="anchor" href="#two" aria-label="Link to this section">#</a></h2>\n' +
    '<pre class="code"><code class="language-rust"><span class="hl-keyword hl-control hl-rust">if</span></code></pre>\n',
  toc: [
    { id: 'one', text: 'One', level: 2 },
    { id: 'one-more', text: 'One more', level: 3 },
    { id: 'two', text: 'Two', level: 2 },
  ],
  tags,
  cover: { src: '/media/cover-800.webp', srcSet: '/media/cover-400.webp 400w, /media/cover-800.webp 800w', width: 800, height: 450, alt: 'A desk' },
  published,
  updated: { iso: '2025-04-01T10:00:00Z', text: '1 April 2025' },
  readingTime: '4 min read',
  newer: { title: 'A newer one', path: '/writing/newer/' },
  older: { title: 'An older one', path: '/writing/older/' },
};

const summary = (id: string, title: string): PostSummaryView => ({
  id,
  title,
  summary: `About ${title}.`,
  path: `/writing/${id}/`,
  published,
  readingTime: '3 min read',
  tags: tags.slice(0, 1),
});

const index: WritingView = {
  path: '/writing/tags/rust/page/2/',
  home: '/',
  writing: '/writing/',
  tag: 'rust',
  posts: [summary('first', 'The first'), summary('second', 'The second')],
  page: 2,
  pages: 3,
  newer: '/writing/tags/rust/',
  older: '/writing/tags/rust/page/3/',
  tags: [
    { ...tags[0]!, count: 5 },
    { ...tags[1]!, count: 2 },
  ],
  feeds: { atom: '/feed.xml', rss: '/rss.xml', json: '/feed.json' },
};

/** Every class of the page a microformats parser reads as a root or a property (mf2py's pattern), sorted. */
const microformatClasses = () =>
  [...document.querySelectorAll('[class]')]
    .flatMap((element) => [...element.classList])
    .filter((name) => /^(h|p|u|dt|e)-([a-z0-9]+-)?[a-z]+(-[a-z]+)*$/.test(name))
    .sort();

const draw = (page: React.ReactNode) => render(<ContentProvider document={defaultDocument}>{page}</ContentProvider>);
const hrefOf = (name: string | RegExp) => screen.getByRole('link', { name }).getAttribute('href');

beforeEach(() => {
  // jsdom has no media queries: no fine pointer, so no cursor dot.
  window.matchMedia = ((query: string) => ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {} })) as unknown as typeof window.matchMedia;
  // Nor layout: the header's current item follows nothing here.
  vi.stubGlobal('IntersectionObserver', class { observe() {} disconnect() {} });
});
afterEach(cleanup);

describe("a post's page", () => {
  test('shows its title, summary, dates, reading time, tags and cover', () => {
    draw(<PostPage view={post} />);
    const article = document.querySelector('article[data-post="hello"]') as HTMLElement;
    expect(article).toBeTruthy();
    expect(within(article).getByRole('heading', { level: 1 }).textContent).toBe('Hello, writing');
    expect(screen.getByRole('article', { name: 'Hello, writing' })).toBe(article);
    expect(screen.getByText('The first post, in a sentence.')).toBeTruthy();
    const times = [...article.querySelectorAll('time')].map((time) => [time.getAttribute('datetime'), time.textContent]);
    expect(times).toEqual([
      ['2025-03-05T09:00:00Z', '5 March 2025'],
      ['2025-04-01T10:00:00Z', '1 April 2025'],
    ]);
    expect(article.textContent).toContain('Updated 1 April 2025');
    expect(article.textContent).toContain('4 min read');
    const tagList = screen.getByRole('list', { name: 'Tags' });
    expect(within(tagList).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['rust', '/writing/tags/rust/'],
      ['web', '/writing/tags/web/'],
    ]);
    const cover = screen.getByRole('img', { name: 'A desk' });
    expect(cover.getAttribute('fetchpriority')).toBe('high');
    expect([cover.getAttribute('width'), cover.getAttribute('height')]).toEqual(['800', '450']);
    expect(cover.getAttribute('srcset')).toContain('800w');
  });

  test("is an h-entry, with its title, summary, dates, tags, body, address and author, and no other microformat's class", () => {
    draw(<PostPage view={post} />);
    const article = document.querySelector('article[data-post="hello"]')!;
    expect(article.classList.contains('h-entry')).toBe(true);
    const text = (name: string) => [...article.querySelectorAll(`.${name}`)].map((element) => element.textContent);
    expect(text('p-name')).toEqual(['Hello, writing']);
    expect(text('p-summary')).toEqual(['The first post, in a sentence.']);
    expect(article.querySelector('.dt-published')!.getAttribute('datetime')).toBe('2025-03-05T09:00:00Z');
    expect(article.querySelector('.dt-updated')!.getAttribute('datetime')).toBe('2025-04-01T10:00:00Z');
    expect(text('p-category')).toEqual(['rust', 'web']);
    expect(article.querySelector('.e-content')!.innerHTML).toBe(post.html);
    expect(article.querySelector('.u-url')!.getAttribute('href')).toBe('/writing/hello/');
    const author = article.querySelector('.p-author')!;
    expect([author.classList.contains('h-card'), author.getAttribute('href'), author.textContent]).toEqual([true, '/', defaultDocument.profile.name]);
    // The page's one item: a class such as Tailwind's automatic height would be read as another (not named here: Tailwind reads the tests too).
    expect(microformatClasses()).toEqual(
      ['dt-published', 'dt-updated', 'e-content', 'h-card', 'h-entry', 'p-author', 'p-category', 'p-category', 'p-name', 'p-summary', 'u-url'].sort(),
    );
  });

  test('without a summary or an update, has no such property', () => {
    draw(<PostPage view={{ ...post, summary: '', updated: null }} />);
    expect(microformatClasses()).not.toContain('p-summary');
    expect(microformatClasses()).not.toContain('dt-updated');
  });

  test('leads back through its breadcrumbs, and the header has a Writing item that is not current', () => {
    draw(<PostPage view={post} />);
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(crumbs).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/', '/writing/', '/writing/hello/']);
    expect(within(crumbs).getByRole('link', { name: 'Hello, writing' }).getAttribute('aria-current')).toBe('page');
    const header = screen.getByRole('navigation', { name: 'Main' });
    const writing = within(header).getByRole('link', { name: 'Writing' });
    expect(writing.getAttribute('href')).toBe('/writing/');
    expect(writing.getAttribute('aria-current')).toBeNull();
    expect(within(header).getByRole('link', { name: 'Projects' }).getAttribute('href')).toBe('/#projects');
  });

  test('has a table of contents, level 3 under level 2, and the body as the server wrote it', () => {
    draw(<PostPage view={post} />);
    const toc = screen.getByRole('navigation', { name: 'Contents' });
    const top = toc.querySelector('ol')!;
    expect([...top.children].map((item) => item.querySelector('a')!.getAttribute('href'))).toEqual(['#one', '#two']);
    expect(within(top.children[0] as HTMLElement).getByRole('link', { name: 'One more' }).closest('ol')).not.toBe(top);
    const body = document.querySelector('.article')!;
    expect(body.innerHTML).toBe(post.html);
    expect(within(body as HTMLElement).getAllByRole('link', { name: 'Link to this section' })).toHaveLength(3);
  });

  test('links the newer and the older post, and all posts', () => {
    draw(<PostPage view={post} />);
    const more = screen.getByRole('navigation', { name: 'More posts' });
    const newer = within(more).getByRole('link', { name: /A newer one/ });
    const older = within(more).getByRole('link', { name: /An older one/ });
    expect([newer.getAttribute('href'), newer.getAttribute('rel'), newer.textContent]).toEqual(['/writing/newer/', 'prev', 'Newer postA newer one']);
    expect([older.getAttribute('href'), older.getAttribute('rel')]).toEqual(['/writing/older/', 'next']);
    expect(within(more).getByRole('link', { name: 'All posts' }).getAttribute('href')).toBe('/writing/');
  });

  test('a short post shows no contents, no update, no cover and no neighbours', () => {
    draw(<PostPage view={{ ...post, toc: [], updated: null, cover: null, newer: null, older: null, tags: [] }} />);
    expect(screen.queryByRole('navigation', { name: 'Contents' })).toBeNull();
    expect(document.body.textContent).not.toContain('Updated');
    expect(screen.queryByRole('img')).toBeNull();
    expect(document.querySelector('[rel="prev"], [rel="next"]')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Tags' })).toBeNull();
    expect(hrefOf('All posts')).toBe('/writing/');
  });
});

describe('the writing index', () => {
  test("lists the page's posts, each its title linking to it, with its day, reading time, summary and tags", () => {
    draw(<WritingPage view={{ ...index, tag: null }} />);
    expect(document.querySelector('main[data-writing]')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Writing');
    const titles = screen.getAllByRole('heading', { level: 2 }).filter((heading) => heading.querySelector('a'));
    expect(titles.map((heading) => [heading.textContent, heading.querySelector('a')!.getAttribute('href')])).toEqual([
      ['The first', '/writing/first/'],
      ['The second', '/writing/second/'],
    ]);
    const first = titles[0]!.closest('li')!;
    expect(first.querySelector('time')!.getAttribute('datetime')).toBe('2025-03-05T09:00:00Z');
    expect(first.textContent).toContain('3 min read');
    expect(first.textContent).toContain('About The first.');
    expect(within(first).getByRole('link', { name: 'rust' }).getAttribute('href')).toBe('/writing/tags/rust/');
    // The header's Writing item is this page.
    const header = screen.getByRole('navigation', { name: 'Main' });
    expect(within(header).getByRole('link', { name: 'Writing' }).getAttribute('aria-current')).toBe('page');
    expect(header.querySelector('[aria-current="true"]')).toBeNull();
  });

  test("carries no microformat's class: its posts' dates and tags are no properties of anything", () => {
    draw(<WritingPage view={index} />);
    expect(microformatClasses()).toEqual([]);
  });

  test("a tag's page says so in its heading and marks its tag current", () => {
    draw(<WritingPage view={index} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Posts tagged “rust”');
    const tagList = screen.getAllByRole('list', { name: 'Tags' })[0]!;
    const current = within(tagList).getAllByRole('link').filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.getAttribute('href'))).toEqual(['/writing/tags/rust/']);
    expect(current[0]!.textContent).toBe('rust5');
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumbs' })).getByRole('link', { name: 'Writing' }).getAttribute('href')).toBe('/writing/');
  });

  test('shows page n of m between the newer and the older page, and the feeds', () => {
    draw(<WritingPage view={index} />);
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(pages.textContent).toContain('Page 2 of 3');
    const newer = within(pages).getByRole('link', { name: 'Newer posts' });
    const older = within(pages).getByRole('link', { name: 'Older posts' });
    expect([newer.getAttribute('href'), newer.getAttribute('rel')]).toEqual(['/writing/tags/rust/', 'prev']);
    expect([older.getAttribute('href'), older.getAttribute('rel')]).toEqual(['/writing/tags/rust/page/3/', 'next']);
    const feeds = screen.getByRole('region', { name: 'Follow by feed' });
    expect(within(feeds).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Atom', '/feed.xml'],
      ['RSS', '/rss.xml'],
      ['JSON Feed', '/feed.json'],
    ]);
  });

  test('one page has no way to others; an empty list says there are no posts yet', () => {
    draw(<WritingPage view={{ ...index, tag: null, posts: [], tags: [], page: 1, pages: 1, newer: null, older: null }} />);
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
    expect(document.body.textContent).not.toMatch(/Page \d of/);
    expect(screen.getByText('No posts yet.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Tags' })).toBeNull();
  });
});

describe('hydration', () => {
  test("takes over the render bundle's HTML of a post and of the index as it is, without a mismatch", async () => {
    const errors = vi.spyOn(console, 'error');
    const failures: unknown[] = [];
    const onError = (event: ErrorEvent) => failures.push(event.error);
    window.addEventListener('error', onError);
    for (const [data, html] of [
      [{ document: defaultDocument, locale: null, post }, renderPost],
      [{ document: defaultDocument, locale: null, writingIndex: index }, renderWriting],
    ] as [PageData, (json: string) => string][]) {
      const container = document.createElement('div');
      container.innerHTML = html(JSON.stringify(data));
      const drawn = container.querySelector('main')!.outerHTML;
      document.body.append(container);
      await act(async () => hydrate(container, data));
      // The page's own part unchanged (the header's scheme toggle takes its state once in the browser).
      expect(container.querySelector('main')!.outerHTML).toBe(drawn);
      container.remove();
    }
    window.removeEventListener('error', onError);
    expect(failures).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });
});
