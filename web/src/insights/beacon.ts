/**
 * Visitor insights, the page's part: one beacon when the page (`/`, `/de/`, a case study's, a post's …) loads, naming the
 * case study on a case study's page (its `data-case-study`, the project's id) and the post on a post's (its `data-post`,
 * the post's id), and one per click on a link marked `data-track` (a stable content id). `navigator.sendBeacon` never delays the visitor and the page
 * works the same when it fails. Nothing is stored in the browser, and nothing is sent when the
 * visitor asks not to be tracked (the server checks `DNT` and `Sec-GPC` too).
 */
const ENDPOINT = '/api/insights/events';

type Event =
  | { kind: 'view'; referrer?: string; utmSource?: string; utmMedium?: string; utmCampaign?: string; caseStudy?: string; post?: string }
  | { kind: 'click'; target: string };

function send(event: Event): void {
  try {
    navigator.sendBeacon(ENDPOINT, new Blob([JSON.stringify(event)], { type: 'application/json' }));
  } catch {
    // Insights are never worth an error.
  }
}

/**
 * The id the page names in its `data-<name>` (a case study's page its project's, `case-study`; a
 * post's its own, `post`), when it is one (the content store's ids). Not exported, to keep the
 * initial JavaScript small: `links/current.ts`, a chunk of its own, reads them alike.
 */
function named(name: string): string | undefined {
  const id = document.querySelector(`[data-${name}]`)?.getAttribute(`data-${name}`);
  return id && /^[a-z0-9][a-z0-9-]{0,40}$/.test(id) ? id : undefined;
}

function optedOut(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}

/**
 * Counts this load of the page (`/`, a language's, a link's, a case study's, a post's) once `viewAfter` settles (the landing passes its hydration, so the beacon
 * never competes with the first screen for the network), or when the page is hidden first, and, from now on, clicks on counted links.
 */
export function startInsights(viewAfter: Promise<unknown> = Promise.resolve()): void {
  if (optedOut()) return;
  const query = new URLSearchParams(location.search);
  // Either id is left out of the JSON when the page names none.
  const view: Event = { kind: 'view', caseStudy: named('case-study'), post: named('post') };
  if (document.referrer) view.referrer = document.referrer.slice(0, 1000);
  for (const [param, field] of [
    ['utm_source', 'utmSource'],
    ['utm_medium', 'utmMedium'],
    ['utm_campaign', 'utmCampaign'],
  ] as const) {
    const value = query.get(param);
    if (value) view[field] = value.slice(0, 200);
  }
  // Once: after the hydration, or sooner when the visitor leaves or hides the page before it (a
  // quick look on a slow phone is a view too).
  let viewed = false;
  const sendView = () => {
    if (!viewed) send(view);
    viewed = true;
  };
  void viewAfter.then(sendView, sendView);
  document.addEventListener('visibilitychange', sendView);
  document.addEventListener(
    'click',
    (click) => {
      const target = (click.target as Element | null)?.closest?.('a[data-track]')?.getAttribute('data-track');
      if (target) send({ kind: 'click', target });
    },
    { capture: true, passive: true },
  );
}
