import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { currentCaseStudy, currentLink, currentPost } from './current';
import { startVisit, VISIBLE_MS } from './visit';

/** The beacons sent. */
let beacons: Blob[];
/** Their JSON bodies. */
const sent = async () => {
  vi.useRealTimers();
  const read = (body: Blob) =>
    new Promise<unknown>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(JSON.parse(String(reader.result)));
      reader.readAsText(body);
    });
  return Promise.all(beacons.map(read));
};

beforeEach(() => {
  beacons = [];
  vi.useFakeTimers();
  history.replaceState(null, '', '/a/acme-0123456789abcdef');
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: (_url: string, body: Blob) => beacons.push(body) > 0,
  });
  // jsdom has no IntersectionObserver: one that sees every section at once.
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe(target: Element) {
        this.callback([{ target, isIntersecting: true } as unknown as IntersectionObserverEntry], this as never);
      }
      unobserve() {}
    },
  );
  document.body.innerHTML =
    '<main><section id="home"></section><section id="projects"><a data-track="project:shop:demo" href="https://shop.example">Demo</a></section></main><a id="resume" href="/resume.pdf" download>Resume</a>';
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  history.replaceState(null, '', '/');
});

describe('currentLink', () => {
  test('is the slug of a link address, and nothing elsewhere or for a visitor who asks not to be tracked', () => {
    expect(currentLink()).toBe('acme-0123456789abcdef');
    history.replaceState(null, '', '/de/');
    expect(currentLink()).toBeUndefined();
    history.replaceState(null, '', '/a/acme-0123456789abcdef');
    Object.defineProperty(navigator, 'doNotTrack', { configurable: true, value: '1' });
    expect(currentLink()).toBeUndefined();
    Object.defineProperty(navigator, 'doNotTrack', { configurable: true, value: null });
  });

  test("is a case study's via, on a case study's page only, when it is a slug", () => {
    history.replaceState(null, '', '/projects/portfolio/?via=acme-0123456789abcdef');
    expect(currentLink()).toBeUndefined();
    document.body.innerHTML = '<article data-case-study="portfolio"></article>';
    expect(currentCaseStudy()).toBe('portfolio');
    expect(currentLink()).toBe('acme-0123456789abcdef');
    history.replaceState(null, '', '/projects/portfolio/?via=a%20b');
    expect(currentLink()).toBeUndefined();
    document.body.innerHTML = '<article data-case-study="Not An Id"></article>';
    expect(currentCaseStudy()).toBeUndefined();
  });

  test("is a post's or the writing index's via, when it is a slug", () => {
    history.replaceState(null, '', '/de/writing/hallo-welt/?via=acme-0123456789abcdef');
    expect(currentLink()).toBeUndefined();
    document.body.innerHTML = '<main><article data-post="hallo-welt"></article></main>';
    expect(currentPost()).toBe('hallo-welt');
    expect(currentLink()).toBe('acme-0123456789abcdef');
    history.replaceState(null, '', '/writing/?via=acme-0123456789abcdef');
    document.body.innerHTML = '<main data-writing=""></main>';
    expect(currentPost()).toBeUndefined();
    expect(currentLink()).toBe('acme-0123456789abcdef');
    history.replaceState(null, '', '/writing/?via=a%20b');
    expect(currentLink()).toBeUndefined();
    document.body.innerHTML = '<main><article data-post="Not/An/Id"></article></main>';
    expect(currentPost()).toBeUndefined();
  });
});

describe('startVisit', () => {
  test('counts an open only once a person scrolls, then each section once', async () => {
    startVisit();
    vi.advanceTimersByTime(VISIBLE_MS - 100);
    expect(beacons).toEqual([]);
    window.dispatchEvent(new Event('scroll'));
    window.dispatchEvent(new Event('scroll'));
    vi.advanceTimersByTime(VISIBLE_MS);
    expect(await sent()).toEqual([
      { slug: 'acme-0123456789abcdef', kind: 'open' },
      { slug: 'acme-0123456789abcdef', kind: 'section', section: 'home' },
      { slug: 'acme-0123456789abcdef', kind: 'section', section: 'projects' },
    ]);
  });

  test('counts an open after five seconds visible without a gesture', async () => {
    startVisit();
    vi.advanceTimersByTime(VISIBLE_MS - 1);
    expect(beacons).toEqual([]);
    vi.advanceTimersByTime(1);
    expect((await sent())[0]).toEqual({ slug: 'acme-0123456789abcdef', kind: 'open' });
  });

  test('reports a counted link and sends the resume with the link', async () => {
    startVisit();
    document.querySelector<HTMLAnchorElement>('a[data-track]')!.addEventListener('click', (event) => event.preventDefault());
    document.querySelector<HTMLAnchorElement>('a[data-track]')!.click();
    const resume = document.querySelector<HTMLAnchorElement>('#resume')!;
    resume.addEventListener('click', (event) => event.preventDefault());
    resume.click();
    expect(await sent()).toContainEqual({ slug: 'acme-0123456789abcdef', kind: 'click', target: 'project:shop:demo' });
    expect(new URL(resume.href).pathname).toBe('/a/acme-0123456789abcdef/resume.pdf');
  });

  test('carries the link to a case study as it is followed, and keeps its other parameters', async () => {
    document.body.insertAdjacentHTML(
      'beforeend',
      '<a id="case" href="/projects/portfolio/">Read</a><a id="de" href="/de/projects/portfolio/?x=1">Lesen</a><a id="out" href="https://elsewhere.example/projects/x/">Out</a>',
    );
    startVisit();
    const links = ['#case', '#de', '#out'].map((id) => document.querySelector<HTMLAnchorElement>(id)!);
    for (const link of links) {
      link.addEventListener('click', (event) => event.preventDefault());
      link.click();
    }
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      `${location.origin}/projects/portfolio/?via=acme-0123456789abcdef`,
      `${location.origin}/de/projects/portfolio/?x=1&via=acme-0123456789abcdef`,
      'https://elsewhere.example/projects/x/',
    ]);
  });

  test('carries the link to the writing as it is followed: its index, a post, in any language', async () => {
    document.body.insertAdjacentHTML(
      'beforeend',
      '<a id="index" href="/writing/">Writing</a><a id="post" href="/writing/hello-world/">Hello</a><a id="de" href="/de/writing/hallo-welt/#intro">Hallo</a><a id="feed" href="/feed.xml">Feed</a><a id="out" href="https://elsewhere.example/writing/x/">Out</a>',
    );
    startVisit();
    const links = ['#index', '#post', '#de', '#feed', '#out'].map((id) => document.querySelector<HTMLAnchorElement>(id)!);
    for (const link of links) {
      link.addEventListener('click', (event) => event.preventDefault());
      link.click();
    }
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      `${location.origin}/writing/?via=acme-0123456789abcdef`,
      `${location.origin}/writing/hello-world/?via=acme-0123456789abcdef`,
      `${location.origin}/de/writing/hallo-welt/?via=acme-0123456789abcdef#intro`,
      '/feed.xml',
      'https://elsewhere.example/writing/x/',
    ]);
  });

  test('on a post reached through a link, counts the post once a person is there, and no open or section', async () => {
    history.replaceState(null, '', '/writing/hello-world/?via=acme-0123456789abcdef');
    document.body.innerHTML =
      '<main><article data-post="hello-world"><section id="intro"></section><a id="older" href="/writing/older/">Older</a></article></main>';
    startVisit();
    vi.advanceTimersByTime(VISIBLE_MS - 1);
    expect(beacons).toEqual([]);
    vi.advanceTimersByTime(1);
    // The older post goes on with the link too.
    const older = document.querySelector<HTMLAnchorElement>('#older')!;
    older.addEventListener('click', (event) => event.preventDefault());
    older.click();
    expect(older.getAttribute('href')).toBe(`${location.origin}/writing/older/?via=acme-0123456789abcdef`);
    expect(await sent()).toEqual([{ slug: 'acme-0123456789abcdef', kind: 'post', post: 'hello-world' }]);
  });

  test("on the writing index reached through a link, counts nothing and carries the link to its posts", async () => {
    history.replaceState(null, '', '/writing/?via=acme-0123456789abcdef');
    document.body.innerHTML = '<main data-writing=""><section id="posts"><a id="post" href="/writing/hello-world/">Hello</a></section></main>';
    startVisit();
    vi.advanceTimersByTime(VISIBLE_MS);
    const post = document.querySelector<HTMLAnchorElement>('#post')!;
    post.addEventListener('click', (event) => event.preventDefault());
    post.click();
    expect(post.getAttribute('href')).toBe(`${location.origin}/writing/hello-world/?via=acme-0123456789abcdef`);
    expect(beacons).toEqual([]);
  });

  test("on a case study reached through a link, counts the case study once a person is there, and no open or section", async () => {
    history.replaceState(null, '', '/projects/portfolio/?via=acme-0123456789abcdef');
    document.body.innerHTML =
      '<main><article data-case-study="portfolio"><section id="problem"></section></article></main>';
    startVisit();
    // (Five seconds visible: a scroll would also wake the visits earlier tests left waiting.)
    vi.advanceTimersByTime(VISIBLE_MS - 1);
    expect(beacons).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(await sent()).toEqual([{ slug: 'acme-0123456789abcdef', kind: 'caseStudy', caseStudy: 'portfolio' }]);
  });

  test('does nothing on an address that is not a link', async () => {
    history.replaceState(null, '', '/');
    startVisit();
    vi.advanceTimersByTime(VISIBLE_MS);
    expect(beacons).toEqual([]);
  });
});
