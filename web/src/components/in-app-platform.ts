/**
 * What the in-app browser banner does on each platform: told apart by the user agent. Loaded with
 * the banner only (see in-app-browser.ts for what every page needs: whether to show it).
 */

export function isAndroid(userAgent: string): boolean {
  return /\bAndroid\b/i.test(userAgent);
}

/** An iPhone's, iPad's or iPod's browser, where a page cannot open Safari itself. */
export function isIos(userAgent: string): boolean {
  return /\b(iPhone|iPad|iPod)\b/.test(userAgent);
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
