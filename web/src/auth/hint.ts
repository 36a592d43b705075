/**
 * The server sets a cookie without any secret, `portfolio_signed_in=1` (`__Host-` prefixed over
 * HTTPS), beside the HttpOnly session cookie. Without it no one is signed in, so the pages do not
 * ask the server (and a visitor never gets a 401); with it, the server has the final word.
 */
const NAMES = ['portfolio_signed_in', '__Host-portfolio_signed_in'];

export function maybeSignedIn(): boolean {
  if (typeof document === 'undefined') return false;
  return document.cookie.split(/;\s*/).some((pair) => NAMES.includes(pair.split('=')[0] ?? ''));
}

/** Drops a hint that turned out stale (the session expired or ended elsewhere). */
export function forgetSignedIn(): void {
  if (typeof document === 'undefined') return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  for (const name of NAMES) document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Strict${secure}`;
}
