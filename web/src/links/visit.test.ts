import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { currentLink } from './current';
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
    expect(new URL(resume.href).search).toBe('?via=acme-0123456789abcdef');
  });

  test('does nothing on an address that is not a link', async () => {
    history.replaceState(null, '', '/');
    startVisit();
    vi.advanceTimersByTime(VISIBLE_MS);
    expect(beacons).toEqual([]);
  });
});
