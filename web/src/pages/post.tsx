import { useId } from 'react';
import type { PostView, TocEntry } from '../content/post-view';
import { useTexts } from '../i18n/locale';
import { Breadcrumbs, PostLine, TagLinks, WritingFrame } from './writing-parts';

/** The table of contents as a tree: each level 3 heading under the level 2 heading before it. */
function tocTree(toc: TocEntry[]): { entry: TocEntry; children: TocEntry[] }[] {
  const tree: { entry: TocEntry; children: TocEntry[] }[] = [];
  for (const entry of toc) {
    const parent = tree[tree.length - 1];
    if (entry.level === 3 && parent) parent.children.push(entry);
    else tree.push({ entry, children: [] });
  }
  return tree;
}

function TocLink({ entry }: { entry: TocEntry }) {
  return (
    <a href={`#${entry.id}`} className="link inline-block py-1 no-underline hover:underline">
      {entry.text}
    </a>
  );
}

/**
 * The post itself: what the page shows between the header and the footer. It is the page's one
 * microformat, an h-entry (IndieWeb readers and Webmention receivers take a post from it): its
 * title, summary, dates, tags and body, its address (the breadcrumbs' last link) and its author,
 * the owner as an h-card (the breadcrumbs' first). The page is not the owner's h-card, as `/` is,
 * and no class of the page may start with `h-` and end with a letter (Tailwind's automatic and
 * full heights, say), which a parser would take for another item. (No such class is named here:
 * Tailwind reads the comments too, and would make its rule.)
 */
function PostArticle({ view }: { view: PostView }) {
  const texts = useTexts();
  // The body's headings have ids of the server's (from their words): the page's own ids are React's, so they never meet.
  const titleId = useId();
  const tocId = useId();
  return (
    <article data-post={view.id} aria-labelledby={titleId} className="h-entry pt-24 pb-16 sm:pt-28">
      <div className="container-page max-w-3xl">
        <Breadcrumbs home={view.home} trail={[{ href: view.writing, text: texts.t('writing.title') }]} current={{ href: view.path, text: view.title }} entry />
        <h1 id={titleId} className="p-name mt-8 text-3xl font-bold tracking-tight text-white sm:text-5xl">
          {view.title}
        </h1>
        {/* An empty summary is no property: a reader would show it as an empty one. */}
        <p className={view.summary ? 'p-summary lead mt-5' : 'lead mt-5'}>{view.summary}</p>
        <PostLine published={view.published} updated={view.updated} readingTime={view.readingTime} entry className="mt-6" />
        <TagLinks tags={view.tags} entry className="mt-3" />
      </div>
      {view.cover && (
        <div className="container-page mt-10 max-w-4xl">
          <img
            src={view.cover.src}
            srcSet={view.cover.srcSet}
            sizes="(min-width: 960px) 896px, 92vw"
            width={view.cover.width}
            height={view.cover.height}
            alt={view.cover.alt}
            fetchPriority="high"
            decoding="async"
            className="w-full rounded-xl border border-gray-800"
          />
        </div>
      )}
      <div className="container-page max-w-3xl">
        {view.toc.length > 0 && (
          <nav aria-labelledby={tocId} className="mt-10 rounded-xl border border-gray-800 bg-gray-800/30 px-5 py-4">
            <p id={tocId} className="text-sm font-semibold tracking-wide text-white">
              {texts.t('writing.toc')}
            </p>
            <ol className="mt-2 text-sm">
              {tocTree(view.toc).map(({ entry, children }) => (
                <li key={entry.id}>
                  <TocLink entry={entry} />
                  {children.length > 0 && (
                    <ol className="ps-4">
                      {children.map((child) => (
                        <li key={child.id}>
                          <TocLink entry={child} />
                        </li>
                      ))}
                    </ol>
                  )}
                </li>
              ))}
            </ol>
          </nav>
        )}
        {/* The server's HTML of the post's Markdown (see content/post-view.ts): trusted, as the page's own; the h-entry's content. */}
        <div className="e-content article mt-10" dangerouslySetInnerHTML={{ __html: view.html }} />
      </div>
      <nav aria-label={texts.t('writing.more')} className="container-page mt-16 max-w-3xl border-t border-gray-800 pt-8">
        {(view.newer || view.older) && (
          <ul className="grid gap-3 sm:grid-cols-2">
            {view.newer && (
              <li>
                <a href={view.newer.path} rel="prev" className="case-study-step">
                  <span className="text-sm text-gray-400">{texts.t('writing.newer')}</span>
                  <span className="font-semibold text-white">{view.newer.title}</span>
                </a>
              </li>
            )}
            {view.older && (
              <li className="sm:col-start-2">
                <a href={view.older.path} rel="next" className="case-study-step sm:text-end">
                  <span className="text-sm text-gray-400">{texts.t('writing.older')}</span>
                  <span className="font-semibold text-white">{view.older.title}</span>
                </a>
              </li>
            )}
          </ul>
        )}
        <p className={view.newer || view.older ? 'mt-6' : undefined}>
          <a href={view.writing} className="link">
            {texts.t('writing.back')}
          </a>
        </p>
      </nav>
    </article>
  );
}

/**
 * A post's page (`/writing/<slug>/`, `/de/writing/<slug>/`), as the server pre-renders it at
 * publish and `hydrate-post.tsx` hydrates it: the site's header, the post, the footer.
 */
export function PostPage({ view }: { view: PostView }) {
  return (
    <WritingFrame home={view.home} writing={view.writing}>
      <PostArticle view={view} />
    </WritingFrame>
  );
}
