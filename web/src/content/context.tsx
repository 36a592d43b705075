import { createContext, useContext, type ReactNode } from 'react';
import type { ContentDocument } from './document.generated';

const ContentContext = createContext<ContentDocument | null>(null);

/**
 * The owner's content document for everything below it. The server renders `/` with the published
 * document and embeds it in the page as JSON data, from which the browser hydrates; the build
 * renders the default document the same way.
 */
export function ContentProvider({ document, children }: { document: ContentDocument; children: ReactNode }) {
  return <ContentContext value={document}>{children}</ContentContext>;
}

/** The content document the page shows. */
export function useContent(): ContentDocument {
  const document = useContext(ContentContext);
  if (!document) throw new Error('useContent() outside a ContentProvider');
  return document;
}
