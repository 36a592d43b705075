/**
 * The application link this visit came through. On the link's page, `/a/<slug>`, it is the
 * address. A case study or a post opened from that page (directly, or through the writing's
 * index) carries it in its own address, `?via=<slug>` (added to the link as it is followed, see
 * `visit.ts`), so the link's figures can name the case studies and posts its readers opened. The
 * page keeps nothing of it (in its memory; never a cookie or storage). A visitor who asks not to
 * be tracked (`DNT`, Global Privacy Control) is never tied to a link: the server checks the same
 * headers.
 */
/** The id the page names in its `data-<name>`, when it is one: as the insights beacon reads it (which exports nothing). */
function named(name: string): string | undefined {
  const id = document.querySelector(`[data-${name}]`)?.getAttribute(`data-${name}`);
  return id && /^[a-z0-9][a-z0-9-]{0,40}$/.test(id) ? id : undefined;
}

/** The case study's project id when the page is a case study's (its `<article data-case-study>`). */
export const currentCaseStudy = () => named('case-study');

/** The post's id when the page is a post's (its `<article data-post>`). */
export const currentPost = () => named('post');

const SLUG = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether the page is one the link is carried through: a case study's, a post's, the writing index's. */
function carriesLink(): boolean {
  return Boolean(currentCaseStudy() || currentPost() || document.querySelector('[data-writing]'));
}

export function currentLink(): string | undefined {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  if (nav.doNotTrack === '1' || nav.globalPrivacyControl === true) return undefined;
  const onLinkPage = /^\/a\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname)?.[1];
  if (onLinkPage) return onLinkPage;
  const via = new URLSearchParams(location.search).get('via');
  return via && SLUG.test(via) && carriesLink() ? via : undefined;
}

/**
 * Whether `anchor` leads to a page of this site that carries the link along: a case study's
 * (`/projects/<slug>/`, `/<language>/projects/<slug>/`), or the writing's (`/writing/`, a post's
 * `/writing/<slug>/`, the index's other pages), under a language's prefix or not.
 */
export function carriesLinkTo(anchor: HTMLAnchorElement): boolean {
  return (
    anchor.origin === location.origin &&
    /^\/(?:[A-Za-z0-9-]{2,35}\/)?(?:projects\/[^/]+\/?|writing(?:\/.*)?)$/.test(anchor.pathname)
  );
}
