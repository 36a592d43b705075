/**
 * The application link this visit came through: the page's address, `/a/<slug>`, is all the page
 * keeps of it (in its memory; never a cookie or storage). A visitor who asks not to be tracked
 * (`DNT`, Global Privacy Control) is never tied to a link: the server checks the same headers.
 */
export function currentLink(): string | undefined {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  if (nav.doNotTrack === '1' || nav.globalPrivacyControl === true) return undefined;
  return /^\/a\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname)?.[1];
}
