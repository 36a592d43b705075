/** Recognises the in-app browsers of LinkedIn, Facebook (FBAN/FBAV), Instagram and Twitter/X. */
const IN_APP = /\b(LinkedInApp|LinkedIn|FBAN|FBAV|FB_IAB|Instagram|Twitter|TwitterAndroid)\b/i;

export function isInAppBrowser(userAgent: string): boolean {
  return IN_APP.test(userAgent);
}

/** Where the banner's dismissal is remembered for the visit (the tab's session storage). */
export const BANNER_DISMISSED = 'in-app-banner-dismissed';

/** Whether the visitor dismissed the in-app browser banner earlier in this visit (the tab's session). */
export function bannerDismissed(): boolean {
  try {
    return sessionStorage.getItem(BANNER_DISMISSED) === '1';
  } catch {
    return false; // Storage can be disabled: show the banner anyway.
  }
}
