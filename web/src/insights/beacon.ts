/**
 * Visitor insights, the page's part: one beacon when the page (`/`, `/de/`, a case study's …) loads, naming the case
 * study on a case study's page (its `data-case-study`, the project's id), and one per click on a link marked
 * `data-track` (a stable content id). `navigator.sendBeacon` never delays the visitor and the page
 * works the same when it fails. Nothing is stored in the browser, and nothing is sent when the
 * visitor asks not to be tracked (the server checks `DNT` and `Sec-GPC` too).
 */
const ENDPOINT = '/api/insights/events';

type Event =
  | { kind: 'view'; referrer?: string; utmSource?: string; utmMedium?: string; utmCampaign?: string; caseStudy?: string }
  | { kind: 'click'; target: string };

function send(event: Event): void {
  try {
    navigator.sendBeacon(ENDPOINT, new Blob([JSON.stringify(event)], { type: 'application/json' }));
  } catch {
    // Insights are never worth an error.
  }
}

/** The case study's project id when the page is a case study's (its `<article data-case-study>`). */
export function currentCaseStudy(): string | undefined {
  const id = document.querySelector('[data-case-study]')?.getAttribute('data-case-study');
  return id && /^[a-z0-9][a-z0-9-]{0,40}$/.test(id) ? id : undefined;
}

function optedOut(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}

/**
 * Counts this load of the page (`/`, a language's, a link's, a case study's) once `viewAfter` settles (the landing passes its hydration, so the beacon
 * never competes with the first screen for the network) and, from now on, clicks on counted links.
 */
export function startInsights(viewAfter: Promise<unknown> = Promise.resolve()): void {
  if (optedOut()) return;
  const query = new URLSearchParams(location.search);
  const view: Event = { kind: 'view' };
  const caseStudy = currentCaseStudy();
  if (caseStudy) view.caseStudy = caseStudy;
  if (document.referrer) view.referrer = document.referrer.slice(0, 1000);
  for (const [param, field] of [
    ['utm_source', 'utmSource'],
    ['utm_medium', 'utmMedium'],
    ['utm_campaign', 'utmCampaign'],
  ] as const) {
    const value = query.get(param);
    if (value) view[field] = value.slice(0, 200);
  }
  const sendView = () => send(view);
  void viewAfter.then(sendView, sendView);
  document.addEventListener(
    'click',
    (click) => {
      const target = (click.target as Element | null)?.closest?.('a[data-track]')?.getAttribute('data-track');
      if (target) send({ kind: 'click', target });
    },
    { capture: true, passive: true },
  );
}
