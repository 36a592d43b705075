import { StrictMode } from 'react';
import { ContentProvider } from '../content/context';
import type { ContentDocument } from '../content/document.generated';
import type { PostView, WritingView } from '../content/post-view';
import { englishLocale, LocaleProvider, type Locale } from '../i18n/locale';
import { PostPage } from './post';
import { WritingPage } from './writing';

/** A post's page, or a page of the writing index. */
export type WritingPageView = { post: PostView } | { writingIndex: WritingView };

/**
 * A post's tree (`/writing/<slug>/`) or a page of the writing index's (`/writing/` …): the one
 * tree that the server's pre-rendering draws (`render-entry.tsx`) and the browser hydrates
 * (`hydrate-post.tsx`).
 */
export function postTree(document: ContentDocument, locale: Locale | null | undefined, view: WritingPageView) {
  return (
    <StrictMode>
      <ContentProvider document={document}>
        <LocaleProvider locale={locale ?? englishLocale}>
          {'post' in view ? <PostPage view={view.post} /> : <WritingPage view={view.writingIndex} />}
        </LocaleProvider>
      </ContentProvider>
    </StrictMode>
  );
}
