/** Recognises the in-app browsers of LinkedIn, Facebook (FBAN/FBAV), Instagram and Twitter/X. */
const IN_APP = /\b(LinkedInApp|LinkedIn|FBAN|FBAV|FB_IAB|Instagram|Twitter|TwitterAndroid)\b/i;

export function isInAppBrowser(userAgent: string): boolean {
  return IN_APP.test(userAgent);
}

export function isAndroid(userAgent: string): boolean {
  return /\bAndroid\b/i.test(userAgent);
}

/**
 * An Android intent URL that asks the system to open `pageUrl` in the default browser
 * (no package named, so the visitor's own choice is respected).
 */
export function androidIntentUrl(pageUrl: string): string {
  const url = new URL(pageUrl);
  const scheme = url.protocol.replace(':', '');
  return `intent://${url.host}${url.pathname}${url.search}#Intent;scheme=${scheme};action=android.intent.action.VIEW;S.browser_fallback_url=${encodeURIComponent(url.href)};end`;
}
