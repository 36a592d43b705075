/** The parts of the site a browser test can make throw while rendering. */
export type TestRenderErrorPart = 'page' | 'dashboard';

declare global {
  interface Window {
    /** Set only by browser tests, with an init script that runs before the page's own scripts. */
    portfolioTestRenderError?: TestRenderErrorPart;
  }
}

/**
 * Throws while rendering when a browser test asks for it, so the tests can see the error pages
 * exactly as a visitor would after a real bug. Nothing on the site sets the flag and the Content
 * Security Policy lets no other script run on the page, so for visitors this never throws; who
 * sets it in their own browser's console only gets the error page, in their own tab.
 */
export function throwIfTestAsks(part: TestRenderErrorPart): void {
  if (typeof window !== 'undefined' && window.portfolioTestRenderError === part) {
    throw new Error(`A render error in the ${part}, asked for by a browser test.`);
  }
}
