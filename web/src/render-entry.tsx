/**
 * The one renderer of `/`: the build runs it in Node (scripts/prerender.mjs) for the default
 * document, the server in QuickJS (server/src/content/render.rs) for the published one, so both
 * draw the same HTML from the same document. Bundled by `vite.render.config.ts` as one
 * self-contained script that sets `globalThis.renderLanding` (and `renderCaseStudy`, `renderPost`
 * and `renderWriting` for the server's other pre-rendered pages); never served to browsers.
 * Each page's tree comes from `pages/*-tree.tsx`, whose function the page's hydration calls too
 * (`hydrate-landing.tsx`, `hydrate-case-study.tsx`, `hydrate-post.tsx`: StrictMode, the providers,
 * the page, without the router), so `useId` values and markup match.
 */
import { renderToString } from 'react-dom/server.browser';
import type { Locale } from './i18n/locale';
import { caseStudyBundled } from './content/case-study-media';
import { bundled } from './content/media';
import type { ContentDocument } from './content/document.generated';
import type { PageData } from './content/embedded';
import type { WritingTeaser } from './content/post-view';
import { landingTree } from './pages/landing-tree';
import { caseStudyTree } from './pages/case-study-tree';
import { postTree } from './pages/post-tree';

/**
 * The HTML of a language's page for its content document given as JSON, its locale (the
 * `locale` of the page's data, see content/embedded.ts; absent or `null` for the plain English
 * page), the case studies its project cards link to (absent or `null`: none) and its latest posts
 * (a `WritingTeaser`, the `writing` of the page's data; absent, `null` or without posts: no
 * Writing section and no Writing item in the header).
 */
export function renderLanding(documentJson: string, localeJson?: string | null, caseStudiesJson?: string | null, writingJson?: string | null): string {
  return renderToString(
    landingTree({
      document: JSON.parse(documentJson) as ContentDocument,
      locale: localeJson ? (JSON.parse(localeJson) as Locale | null) : null,
      caseStudies: caseStudiesJson ? (JSON.parse(caseStudiesJson) as Record<string, string> | null) : null,
      writing: writingJson ? (JSON.parse(writingJson) as WritingTeaser | null) : null,
    }),
  );
}

/**
 * The HTML of a case study's page for its page data given as JSON (`{document, locale, caseStudy}`,
 * see content/embedded.ts): the tree `hydrate-case-study.tsx` hydrates.
 */
export function renderCaseStudy(pageDataJson: string): string {
  const { document, locale, caseStudy } = JSON.parse(pageDataJson) as PageData;
  if (!caseStudy) throw new Error('the page data has no case study');
  return renderToString(caseStudyTree(document, locale, caseStudy));
}

/**
 * The HTML of a post's page for its page data given as JSON (`{document, locale, post}`, see
 * content/embedded.ts and content/post-view.ts): the tree `hydrate-post.tsx` hydrates.
 */
export function renderPost(pageDataJson: string): string {
  const { document, locale, post } = JSON.parse(pageDataJson) as PageData;
  if (!post) throw new Error('the page data has no post');
  return renderToString(postTree(document, locale, { post }));
}

/**
 * The HTML of a page of the writing index for its page data given as JSON (`{document, locale,
 * writingIndex}`): the tree `hydrate-post.tsx` hydrates.
 */
export function renderWriting(pageDataJson: string): string {
  const { document, locale, writingIndex } = JSON.parse(pageDataJson) as PageData;
  if (!writingIndex) throw new Error('the page data has no writing index');
  return renderToString(postTree(document, locale, { writingIndex }));
}

(globalThis as { renderLanding?: typeof renderLanding }).renderLanding = renderLanding;
(globalThis as { renderCaseStudy?: typeof renderCaseStudy }).renderCaseStudy = renderCaseStudy;
(globalThis as { renderPost?: typeof renderPost }).renderPost = renderPost;
(globalThis as { renderWriting?: typeof renderWriting }).renderWriting = renderWriting;
/** The bundled images' URLs by their document source (`images/avatar-640.webp`), for the server's head. */
(globalThis as { bundledMedia?: Record<string, string> }).bundledMedia = { ...bundled, ...caseStudyBundled };
