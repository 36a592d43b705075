// Text that only React Router's development build carries (its warnings and the "Hey developer"
// error screen, all behind ENABLE_DEV_WARNINGS): none of it may reach a built file. Checked on
// the pre-render bundle by prerender.mjs and on everything in dist/ by e2e/production-build.test.ts.

export const DEV_ONLY_TEXT = [
  'Hey developer',
  'You can provide a way better UX',
  'Error handled by React Router default ErrorBoundary',
  'No routes matched location',
  'Matched leaf route at location',
  'You should not include both',
  'You rendered descendant <Routes>',
];

/** The development-only strings that `text` contains. */
export function devOnlyTextIn(text) {
  return DEV_ONLY_TEXT.filter((needle) => text.includes(needle));
}
