/**
 * The URLs of the placeholder's case studies' bundled pictures, by their path under this folder
 * (`images/case-studies/portfolio-lighthouse-640.webp`): apart from media.ts's, so that only what
 * draws a case study carries them (the render entry, for the server's media map).
 */
export const caseStudyBundled: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>('./images/case-studies/*.{webp,png,jpg}', { eager: true, query: '?url', import: 'default' }),
  ).map(([path, url]) => [path.slice(2), url]),
);
