/**
 * The application link this visit came through. On the link's page, `/a/<slug>`, it is the
 * address. A case study opened from that page carries it in its own address, `?via=<slug>` (added
 * to the card's "Read the case study" as it is followed, see `visit.ts`), so the link's figures
 * can name the case studies its readers opened. The page keeps nothing of it (in its memory; never
 * a cookie or storage). A visitor who asks not to be tracked (`DNT`, Global Privacy Control) is
 * never tied to a link: the server checks the same headers.
 */
import { currentCaseStudy } from '../insights/beacon';

export { currentCaseStudy };

const SLUG = /^[A-Za-z0-9_-]{1,64}$/;

export function currentLink(): string | undefined {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  if (nav.doNotTrack === '1' || nav.globalPrivacyControl === true) return undefined;
  const onLinkPage = /^\/a\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname)?.[1];
  if (onLinkPage) return onLinkPage;
  const via = new URLSearchParams(location.search).get('via');
  return via && SLUG.test(via) && currentCaseStudy() ? via : undefined;
}

/** Whether `anchor` leads to a case study's page of this site: `/projects/<slug>/`, `/<language>/projects/<slug>/`. */
export function isCaseStudyAddress(anchor: HTMLAnchorElement): boolean {
  return anchor.origin === location.origin && /^\/(?:[A-Za-z0-9-]{2,35}\/)?projects\/[^/]+\/?$/.test(anchor.pathname);
}
