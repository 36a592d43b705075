import type { ReactNode } from 'react';
import { ErrorBoundary } from '../components/error-boundary';
import { Navigation } from '../components/navigation';
import { useContent } from '../content/context';
import type { PostDate, PostTag } from '../content/post-view';
import { addEnglish, useTexts } from '../i18n/locale';
import englishTexts from '../i18n/en.json?writing&part';
import { Footer } from '../sections/footer';
import { ErrorView } from './error-view';
import { SiteChrome } from './site-chrome';

addEnglish(englishTexts);

/**
 * The frame of a post's page and of the writing index's pages, as a case study's page has it: the
 * site's header (its items leading to the sections of the language's page, its Writing item to the
 * index, the current page on the index's own pages), the page, the footer. The index's `<main>`
 * carries `data-writing`, by which `main.tsx` picks the chunk that hydrates it.
 */
export function WritingFrame({ home, writing, index, children }: { home: string; writing: string; index?: boolean; children: ReactNode }) {
  const content = useContent();
  return (
    <ErrorBoundary fallback={<ErrorView notFound={false} />}>
      <SiteChrome>
        <Navigation
          brand={content.profile.name}
          resume={content.resume.path}
          sections={content.appearance.sections}
          home={home}
          writing={writing}
          writingCurrent={index}
        />
        <main id="main" tabIndex={-1} data-writing={index ? '' : undefined} className="outline-none">
          {children}
        </main>
        <Footer />
      </SiteChrome>
    </ErrorBoundary>
  );
}

/**
 * The way here from the owner's page: its name, then `trail`, then this page (`current`). On a
 * post's page (`entry`, inside its h-entry) the owner's name is the post's author, an h-card with
 * the name and the owner's page as its URL (the page whose own h-card has that URL, as IndieWeb's
 * authorship asks), and this page's link the post's address (`u-url`).
 */
export function Breadcrumbs({
  home,
  trail,
  current,
  entry,
}: {
  home: string;
  trail: { href: string; text: string }[];
  current: { href: string; text: string };
  entry?: boolean;
}) {
  const content = useContent();
  const texts = useTexts();
  return (
    <nav aria-label={texts.t('writing.breadcrumbs')} className="text-sm text-gray-400">
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <li>
          <a href={home} className={entry ? 'p-author h-card link' : 'link'}>
            <bdi>{content.profile.name}</bdi>
          </a>
        </li>
        {trail.map((step) => (
          <BreadcrumbStep key={step.href}>
            <a href={step.href} className="link">
              {step.text}
            </a>
          </BreadcrumbStep>
        ))}
        <BreadcrumbStep>
          <a href={current.href} aria-current="page" className={entry ? 'u-url text-gray-300' : 'text-gray-300'}>
            {current.text}
          </a>
        </BreadcrumbStep>
      </ol>
    </nav>
  );
}

function BreadcrumbStep({ children }: { children: ReactNode }) {
  return (
    <>
      <li aria-hidden="true">/</li>
      <li>{children}</li>
    </>
  );
}

/**
 * When a post was published (and changed, when it was), and how long it takes to read. On the
 * post's own page (`entry`) the dates are its h-entry's; never in a list, where they would be read
 * as properties of the page around them (the home page is the owner's h-card).
 */
export function PostLine({
  published,
  updated,
  readingTime,
  entry,
  className = '',
}: {
  published: PostDate;
  updated?: PostDate | null;
  readingTime: string;
  entry?: boolean;
  className?: string;
}) {
  const texts = useTexts();
  return (
    <p className={`flex flex-wrap gap-x-2 text-sm text-gray-400 ${className}`}>
      <time dateTime={published.iso} className={entry ? 'dt-published' : undefined}>
        {published.text}
      </time>
      {updated && (
        <>
          <span aria-hidden="true">·</span>
          <span>
            {texts.rich('writing.updated', {
              date: (
                <time dateTime={updated.iso} className={entry ? 'dt-updated' : undefined}>
                  {updated.text}
                </time>
              ),
            })}
          </span>
        </>
      )}
      <span aria-hidden="true">·</span>
      <span>{readingTime}</span>
    </p>
  );
}

/**
 * Tags as links to their pages of the index: each a pill inside a link 44 px tall, so that a
 * finger finds it. `current` names the tag whose page this is. On a post's page (`entry`) each is
 * a category of its h-entry, read from the link's text (the tag's name).
 */
export function TagLinks({
  tags,
  current,
  counts,
  entry,
  className = '',
}: {
  tags: (PostTag & { count?: number })[];
  current?: string | null;
  counts?: boolean;
  entry?: boolean;
  className?: string;
}) {
  const texts = useTexts();
  if (tags.length === 0) return null;
  return (
    <ul aria-label={texts.t('writing.tags')} className={`flex flex-wrap gap-x-1.5 ${className}`}>
      {tags.map((tag) => (
        <li key={tag.path}>
          <a href={tag.path} aria-current={tag.name === current ? 'page' : undefined} className={entry ? 'p-category tag-link' : 'tag-link'}>
            <span className="tag" dir="auto">
              {tag.name}
              {counts && tag.count !== undefined && <span className="ms-1.5 text-gray-400">{tag.count}</span>}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
