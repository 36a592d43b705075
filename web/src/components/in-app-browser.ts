/** Recognises the in-app browsers of LinkedIn, Facebook (FBAN/FBAV), Instagram and Twitter/X. */
const IN_APP = /\b(LinkedInApp|LinkedIn|FBAN|FBAV|FB_IAB|Instagram|Twitter|TwitterAndroid)\b/i;

export function isInAppBrowser(userAgent: string): boolean {
  return IN_APP.test(userAgent);
}

export function isAndroid(userAgent: string): boolean {
  return /\bAndroid\b/i.test(userAgent);
}

/** An iPhone's, iPad's or iPod's browser, where a page cannot open Safari itself. */
export function isIos(userAgent: string): boolean {
  return /\b(iPhone|iPad|iPod)\b/.test(userAgent);
}

const DISMISSED = 'in-app-banner-dismissed';

/** Whether the visitor dismissed the in-app browser banner earlier in this visit (the tab's session). */
export function bannerDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED) === '1';
  } catch {
    return false; // Storage can be disabled: show the banner anyway.
  }
}

/** Remembers the banner's dismissal for the rest of the visit, where storage allows. */
export function rememberBannerDismissed(): void {
  try {
    sessionStorage.setItem(DISMISSED, '1');
  } catch {
    // Nothing to remember it in; it stays dismissed until the next load.
  }
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
