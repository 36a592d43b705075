/**
 * The dashboard's Writing tab (`/dashboard?view=writing`): the owner's posts, drafts, scheduled and
 * published, a new one begun from its title, and each post's editor (`&post=<id>`, so a reload or
 * a shared link opens it). A chunk of its own, downloaded when the tab opens: neither `/` nor the
 * other tabs load it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { loadDraft } from '../../api/content';
import { sessionEnded } from '../shared/session';
import type { PageFacts } from './page-facts';
import { PostEditor } from './post-editor';
import { PostList } from './post-list';

/** The page's draft, read once for its languages and scheme; the page's own language alone while it is not known. */
function usePageFacts(): PageFacts | null {
  const [facts, setFacts] = useState<PageFacts | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    loadDraft(controller.signal).then(
      ({ document }) =>
        setFacts({
          languages: [document.language ?? 'en', ...(document.languages ?? []).map((language) => language.tag)],
          scheme: document.appearance.scheme === 'light' ? 'light' : 'dark',
        }),
      (cause: unknown) => {
        // Without it, a post is written in the page's language, and the view says nothing more.
        if (!controller.signal.aborted && !sessionEnded(cause)) setFacts({ languages: [], scheme: 'dark' });
      },
    );
    return () => controller.abort();
  }, []);
  return facts;
}

export default function WritingView() {
  const [params, setParams] = useSearchParams();
  const id = params.get('post');
  const page = usePageFacts();
  // Focus follows the move: the editor's heading when a post opens, the post's link when it closes,
  // once drawn.
  const focusNext = useRef<string | null>(null);
  const focusIfShown = useCallback(() => {
    const element = focusNext.current ? window.document.getElementById(focusNext.current) : null;
    if (!element) return;
    focusNext.current = null;
    element.focus();
  }, []);
  const open = useCallback(
    (post: string) => {
      focusNext.current = 'post-heading';
      setParams({ view: 'writing', post });
    },
    [setParams],
  );
  const close = useCallback(() => {
    focusNext.current = id ? `post-link-${id}` : null;
    setParams({ view: 'writing' });
  }, [id, setParams]);
  return id ? (
    <PostEditor key={id} id={id} page={page} focus={focusIfShown} onClose={close} />
  ) : (
    <PostList page={page} focus={focusIfShown} onOpen={open} />
  );
}
