import { useId } from 'react';
import type { WritingView } from '../content/post-view';
import { useTexts } from '../i18n/locale';
import { Breadcrumbs, PostLine, TagLinks, WritingFrame } from './writing-parts';

/** One page of the index: its heading, the tags, the posts, the way to the other pages, the feeds. */
function WritingIndex({ view }: { view: WritingView }) {
  const texts = useTexts();
  const titleId = useId();
  const feedsId = useId();
  const all = texts.t('writing.title');
  const title = view.tag ? texts.t('writing.tagged', { tag: view.tag }) : all;
  const paged = view.pages > 1;
  return (
    <section aria-labelledby={titleId} className="pt-24 pb-16 sm:pt-28">
      <div className="container-page max-w-3xl">
        <Breadcrumbs
          home={view.home}
          trail={view.tag ? [{ href: view.writing, text: all }] : []}
          current={{ href: view.path, text: view.tag ?? all }}
        />
        <h1 id={titleId} className="mt-8 text-3xl font-bold tracking-tight text-white sm:text-5xl">
          {title}
        </h1>
        <TagLinks tags={view.tags} current={view.tag} counts className="mt-6" />
        {view.posts.length === 0 ? (
          <p className="mt-10 text-gray-400">{texts.t('writing.empty')}</p>
        ) : (
          <ol className="mt-8 border-t border-gray-800">
            {view.posts.map((post) => (
              <li key={post.id} className="border-b border-gray-800 py-8">
                <article>
                  <h2 className="text-xl font-bold tracking-tight sm:text-2xl">
                    <a href={post.path} className="text-white transition-colors duration-200 ease-out hover:text-blue-300">
                      {post.title}
                    </a>
                  </h2>
                  <PostLine published={post.published} readingTime={post.readingTime} className="mt-2" />
                  <p className="mt-3 max-w-[65ch] text-gray-300">{post.summary}</p>
                  <TagLinks tags={post.tags} current={view.tag} className="mt-2" />
                </article>
              </li>
            ))}
          </ol>
        )}
        {paged && (
          <nav aria-label={texts.t('writing.pages')} className="mt-10 flex flex-wrap items-center justify-between gap-3">
            {view.newer && (
              <a href={view.newer} rel="prev" className="btn btn-secondary px-4 text-sm">
                {texts.t('writing.newerPage')}
              </a>
            )}
            <p className="text-sm text-gray-400">{texts.t('writing.page', { page: view.page, pages: view.pages })}</p>
            {view.older && (
              <a href={view.older} rel="next" className="btn btn-secondary ms-auto px-4 text-sm">
                {texts.t('writing.olderPage')}
              </a>
            )}
          </nav>
        )}
        {view.tag && (
          <p className="mt-8">
            <a href={view.writing} className="link">
              {texts.t('writing.back')}
            </a>
          </p>
        )}
        <section aria-labelledby={feedsId} className="mt-12 border-t border-gray-800 pt-6">
          <h2 id={feedsId} className="text-base font-semibold">
            {texts.t('writing.feeds')}
          </h2>
          <ul className="mt-2 flex flex-wrap gap-x-5 text-sm">
            <li>
              <a href={view.feeds.atom} type="application/atom+xml" className="link inline-flex min-h-11 items-center">
                Atom
              </a>
            </li>
            <li>
              <a href={view.feeds.rss} type="application/rss+xml" className="link inline-flex min-h-11 items-center">
                RSS
              </a>
            </li>
            <li>
              <a href={view.feeds.json} type="application/feed+json" className="link inline-flex min-h-11 items-center">
                JSON Feed
              </a>
            </li>
          </ul>
        </section>
      </div>
    </section>
  );
}

/**
 * A page of the writing index (`/writing/`, a tag's `/writing/tags/<tag>/`, a later page
 * `/writing/page/<n>/`, each under its language's prefix too), as the server pre-renders it at
 * publish and `hydrate-post.tsx` hydrates it: the site's header (its Writing item the current
 * page), the list, the footer.
 */
export function WritingPage({ view }: { view: WritingView }) {
  return (
    <WritingFrame home={view.home} writing={view.writing} index>
      <WritingIndex view={view} />
    </WritingFrame>
  );
}
