import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { startInsights } from './beacon';

/** A beacon's JSON body (jsdom's Blob has no `text()`). */
const read = (body: Blob) =>
  new Promise<unknown>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(JSON.parse(String(reader.result)));
    reader.readAsText(body);
  });

/** The beacons' JSON bodies. */
let beacons: Promise<unknown>[];

beforeEach(() => {
  beacons = [];
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: (_url: string, body: Blob) => beacons.push(read(body)) > 0,
  });
});

afterEach(() => {
  history.replaceState(null, '', '/');
  document.body.innerHTML = '';
  Object.defineProperty(navigator, 'doNotTrack', { configurable: true, value: null });
});

describe('startInsights', () => {
  test("a case study's page names its project with the view", async () => {
    history.replaceState(null, '', '/projects/portfolio/?utm_source=mail');
    document.body.innerHTML = '<main><article data-case-study="portfolio"></article></main>';
    startInsights();
    await vi.waitFor(() => expect(beacons).toHaveLength(1));
    expect(await beacons[0]).toEqual({ kind: 'view', caseStudy: 'portfolio', utmSource: 'mail' });
  });

  test("a post's page names its post with the view", async () => {
    history.replaceState(null, '', '/de/writing/hallo-welt/');
    document.body.innerHTML = '<main><article data-post="hallo-welt"></article></main>';
    startInsights();
    await vi.waitFor(() => expect(beacons).toHaveLength(1));
    expect(await beacons[0]).toStrictEqual({ kind: 'view', post: 'hallo-welt' });
  });

  test('the page itself names none, nor does the writing index, nor a malformed id', async () => {
    document.body.innerHTML = '<main><section id="home"></section></main>';
    startInsights();
    document.body.innerHTML = '<main data-writing=""><a href="/writing/hello/">Hello</a></main>';
    startInsights();
    document.body.innerHTML = '<main><article data-case-study="Not An Id"></article></main>';
    startInsights();
    document.body.innerHTML = `<main><article data-post="${'a'.repeat(42)}"></article></main>`;
    startInsights();
    await vi.waitFor(() => expect(beacons).toHaveLength(4));
    expect(await Promise.all(beacons)).toStrictEqual([{ kind: 'view' }, { kind: 'view' }, { kind: 'view' }, { kind: 'view' }]);
  });

  test('nothing is sent for a visitor who asks not to be tracked', async () => {
    Object.defineProperty(navigator, 'doNotTrack', { configurable: true, value: '1' });
    document.body.innerHTML = '<main><article data-case-study="portfolio"></article></main>';
    startInsights();
    await Promise.resolve();
    await Promise.resolve();
    expect(beacons).toEqual([]);
  });
});
