import { describe, expect, test } from 'vitest';
import { isInAppBrowser } from './in-app-browser';
import { androidIntentUrl, isAndroid, isIos } from './in-app-platform';

const UA = {
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safari: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  linkedin: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.30.1',
  facebookIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.37.106;FBBV/123]',
  facebookAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/480.0.0.0;]',
  instagram: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36 Instagram 350.0.0.0 Android',
  twitter: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.60',
};

describe('in-app browser detection', () => {
  test('recognises LinkedIn, Facebook, Instagram and Twitter in-app browsers', () => {
    for (const ua of [UA.linkedin, UA.facebookIos, UA.facebookAndroid, UA.instagram, UA.twitter]) {
      expect(isInAppBrowser(ua), ua).toBe(true);
    }
  });

  test('leaves ordinary browsers alone', () => {
    expect(isInAppBrowser(UA.chrome)).toBe(false);
    expect(isInAppBrowser(UA.safari)).toBe(false);
  });

  test('tells Android apart', () => {
    expect(isAndroid(UA.instagram)).toBe(true);
    expect(isAndroid(UA.linkedin)).toBe(false);
  });

  test('tells iOS apart, where the banner copies the link and says how to open Safari', () => {
    for (const ua of [UA.linkedin, UA.facebookIos, UA.twitter]) expect(isIos(ua), ua).toBe(true);
    for (const ua of [UA.instagram, UA.facebookAndroid, UA.chrome]) expect(isIos(ua), ua).toBe(false);
  });

  test('builds an intent URL for the same page and scheme', () => {
    const url = androidIntentUrl('https://alex.example.dev/?ref=li');
    expect(url).toMatch(/^intent:\/\/alex\.example\.dev\/\?ref=li#Intent;scheme=https;/);
    expect(url).toContain('S.browser_fallback_url=https%3A%2F%2Falex.example.dev%2F%3Fref%3Dli');
    expect(url.endsWith(';end')).toBe(true);
  });
});
