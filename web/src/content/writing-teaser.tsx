import { createContext, useContext } from 'react';
import type { WritingTeaser } from './post-view';

/**
 * The home page's latest posts, for its Writing section and the header's Writing item: the
 * server gives them with the page's data (`writing`, absent when the language has no post). A
 * context (`<WritingTeaserProvider value={teaser}>`) provided by the landing's render and
 * hydration, and by the app (`app.tsx`) from its shell's data, for the error page's header; the
 * dev server's pages give none.
 */
export const WritingTeaserProvider = createContext<WritingTeaser | null | undefined>(null);

/** The teaser when it has a post to show, else null: no section, no header item. */
export function useWritingTeaser(): WritingTeaser | null {
  const teaser = useContext(WritingTeaserProvider);
  return teaser?.posts.length ? teaser : null;
}
