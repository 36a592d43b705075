import type { ContentDocument } from './document.generated';
import type { Locale } from '../i18n/locale';
import type { CaseStudyView } from './case-study-view';
import type { PostView, WritingTeaser, WritingView } from './post-view';

/** The id of the JSON data block the server (and the build) put in every page. */
export const PAGE_DATA_ID = 'page-data';

/**
 * What a page was rendered from: its content document and, for a page whose language is not the
 * plain default, its locale (fixed texts, published languages).
 */
export interface PageData {
  document: ContentDocument;
  locale: Locale | null;
  /** The case studies the page's project cards link to, by project id (none: no links). */
  caseStudies?: Readonly<Record<string, string>>;
  /** A case study's page: the case study it shows. */
  caseStudy?: CaseStudyView;
  /** A post's page (`/writing/<slug>/`): the post it shows. */
  post?: PostView;
  /** A page of the writing index (`/writing/`, a tag's, a later page): the posts it lists. */
  writingIndex?: WritingView;
  /** The home page's Writing section: its latest posts (absent when the language has none). */
  writing?: WritingTeaser;
}

/**
 * The page's data, from its JSON data block: inline (the app's shell, the draft preview), or, on
 * the published pages, a file the block names (`data-src`: a data block may not have `src`, HTML says), fetched once the first screen is drawn, so
 * that the HTML the first round trip carries holds only what is drawn. No copy of the document is
 * in the JavaScript. The Vite dev server's page has no block and takes the default document.
 */
export async function pageData(): Promise<PageData> {
  const block = document.getElementById(PAGE_DATA_ID) as HTMLScriptElement | null;
  if (import.meta.env.DEV && !block) return { document: (await import('./document')).defaultDocument, locale: null };
  // A missing block, or a file that does not answer with JSON, rejects: the page stays as drawn.
  const file = block!.dataset.src;
  return file ? ((await fetch(file)).json() as Promise<PageData>) : (JSON.parse(block!.textContent!) as PageData);
}
