import { hydrateInSlices } from './hydrate-in-slices';
import { ContentProvider } from './content/context';
import { englishLocale, LocaleProvider } from './i18n/locale';
import type { PageData } from './content/embedded';
import { PostPage } from './pages/post';
import { WritingPage } from './pages/writing';

/**
 * A pre-rendered post's page (`/writing/<slug>/`) or page of the writing index (`/writing/` …),
 * hydrated without the router: a chunk of its own, which `main.tsx` loads once the first screen
 * is drawn. The trees are the ones `render-entry.tsx`'s `renderPost` and `renderWriting` draw.
 */
export function hydrate(container: HTMLElement, { document, locale, post, writingIndex }: PageData): void {
  if (!post && !writingIndex) throw new Error('the page data has no post and no writing index');
  hydrateInSlices(
    container,
    <ContentProvider document={document}>
      <LocaleProvider locale={locale ?? englishLocale}>
        {post ? <PostPage view={post} /> : <WritingPage view={writingIndex!} />}
      </LocaleProvider>
    </ContentProvider>,
  );
}
