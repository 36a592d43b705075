import { useEffect } from 'react';

/** What the posts need of the page: its languages (its own first) and its scheme, as its saved draft has them. */
export interface PageFacts {
  languages: string[];
  scheme: 'dark' | 'light';
}

/** Runs `focusIfShown` after each render: focus moves once what it waits for is drawn (the list's and the editor's arrive after their data). */
export function useFocusWhenShown(focusIfShown: () => void) {
  useEffect(() => focusIfShown());
}
