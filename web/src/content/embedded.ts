import type { ContentDocument } from './document.generated';

/** The id of the JSON data block the server (and the build) put in every page. */
export const CONTENT_DATA_ID = 'content-data';

/**
 * The content document the page was rendered from, read from its JSON data block: no request,
 * and no copy of the document in the JavaScript. The Vite dev server's page has no block and
 * takes the default document.
 */
export async function embeddedDocument(): Promise<ContentDocument> {
  const text = document.getElementById(CONTENT_DATA_ID)?.textContent;
  if (text) return JSON.parse(text) as ContentDocument;
  if (import.meta.env.DEV) return (await import('./document')).defaultDocument;
  throw new Error(`The page has no #${CONTENT_DATA_ID} data block.`);
}
