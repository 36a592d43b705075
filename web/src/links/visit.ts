/**
 * A visit through an application link (`/a/<slug>`), the page's part: a chunk loaded only on such
 * an address, once the page is hydrated. It tells the server, by beacon, that a person opened the
 * page (after their first scroll, pointer or key, or 5 seconds visible: link-preview fetchers and
 * mail scanners do none of it), which sections came into view, and which counted links they
 * followed; the resume link carries the link along, and so does the contact form (see
 * `api/contact.ts`). A case study's page followed from there (the card's "Read the case study",
 * or the previous and next case study) gets `?via=<slug>` as it is followed, and on that page
 * (the chunk loads there too) the same person's presence counts the case study, once, instead of
 * an open and sections. The writing's pages do the same: a post's (from the Writing section, the
 * index, the newer and older post) counts the post; the index's pages count nothing and carry the
 * link on to the posts. Nothing is stored in the browser.
 */
import { carriesLinkTo, currentCaseStudy, currentLink, currentPost } from './current';

const ENDPOINT = '/api/links/visits';
/** How long the page must be visible before a visitor who does nothing still counts as opening it. */
export const VISIBLE_MS = 5000;

type Visit =
  | { kind: 'open' }
  | { kind: 'section'; section: string }
  | { kind: 'click'; target: string }
  | { kind: 'caseStudy'; caseStudy: string }
  | { kind: 'post'; post: string };

function send(slug: string, visit: Visit): void {
  try {
    navigator.sendBeacon(ENDPOINT, new Blob([JSON.stringify({ slug, ...visit })], { type: 'application/json' }));
  } catch {
    // A link's counts are never worth an error.
  }
}

/** Calls `opened` once: at the first scroll, pointer or key, or after `VISIBLE_MS` of the page visible. */
function whenPersonArrives(opened: () => void): void {
  const events = ['scroll', 'pointerdown', 'keydown', 'touchstart'] as const;
  let done = false;
  let visibleFor = 0;
  let since = document.visibilityState === 'visible' ? performance.now() : null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    for (const name of events) removeEventListener(name, finish, true);
    document.removeEventListener('visibilitychange', onVisibility);
    opened();
  };
  const arm = () => {
    clearTimeout(timer);
    if (since !== null) timer = setTimeout(finish, VISIBLE_MS - visibleFor);
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') since = performance.now();
    else if (since !== null) {
      visibleFor += performance.now() - since;
      since = null;
    }
    arm();
  };
  for (const name of events) addEventListener(name, finish, { capture: true, passive: true });
  document.addEventListener('visibilitychange', onVisibility);
  arm();
}

/**
 * Starts counting this visit, when the address is a link's, or a case study's, a post's or the
 * writing index's reached through one.
 */
export function startVisit(): void {
  const slug = currentLink();
  if (!slug) return;
  const caseStudy = currentCaseStudy();
  const post = currentPost();
  const onLinkPage = location.pathname.startsWith('/a/');
  whenPersonArrives(() => {
    if (!onLinkPage) {
      // The link's page counted the open, and its sections are not this page's: a case study or a
      // post counts itself, the writing index nothing.
      if (caseStudy) send(slug, { kind: 'caseStudy', caseStudy });
      else if (post) send(slug, { kind: 'post', post });
      return;
    }
    send(slug, { kind: 'open' });
    // Each section once, as it comes into view, from the opening on.
    const seen = new Set<string>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = entry.target.id;
          if (!entry.isIntersecting || seen.has(id)) continue;
          seen.add(id);
          observer.unobserve(entry.target);
          send(slug, { kind: 'section', section: id });
        }
      },
      { threshold: 0.25 },
    );
    for (const section of document.querySelectorAll('main section[id]')) observer.observe(section);
  });
  // Counted links (a project's demo or code, a profile); the resume, the link's own at the link's
  // address, where the server counts the download; and case studies and the writing, which carry
  // the link to their pages.
  const follow = (event: Event) => {
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor) return;
    const target = anchor.getAttribute('data-track');
    if (target) send(slug, { kind: 'click', target });
    // The resume (`/resume.pdf`, `/de/resume.pdf`): the link's own, at its address.
    if (anchor.origin === location.origin && /^(\/[^/]+)?\/resume\.pdf$/.test(anchor.pathname)) {
      anchor.pathname = `/a/${encodeURIComponent(slug)}/resume.pdf`;
    } else if (carriesLinkTo(anchor)) {
      const query = new URLSearchParams(anchor.search);
      query.set('via', slug);
      anchor.search = `?${query.toString()}`;
    }
  };
  document.addEventListener('click', follow, { capture: true, passive: true });
  document.addEventListener('auxclick', follow, { capture: true, passive: true });
}
