import { useWritingTeaser } from '../content/writing-teaser';
import { addEnglish, useTexts } from '../i18n/locale';
import englishTexts from '../i18n/en.json?writing.title,writing.all&part';
import { SectionHeading } from './section-heading';

addEnglish(englishTexts);

/**
 * The latest posts (the server's teaser, see content/writing-teaser.tsx) as cards, each its title
 * leading to the post, with its day and summary, and the way to every post. Nothing at all, not
 * even the heading, when the page's language has no post.
 */
export function Writing() {
  const teaser = useWritingTeaser();
  const texts = useTexts();
  if (!teaser) return null;
  return (
    <section id="writing" aria-labelledby="writing-title" className="section border-b border-gray-800">
      <div className="container-page">
        <SectionHeading id="writing-title" text={{ title: texts.t('writing.title'), lead: '' }} />
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {teaser.posts.map((post) => (
            <li key={post.id} className="card flex flex-col p-5">
              <h3 className="text-lg font-semibold">
                <a href={post.path} data-track={`writing:${post.id}`} className="transition-colors duration-200 ease-out hover:text-blue-300">
                  {post.title}
                </a>
              </h3>
              <p className="mt-1 flex flex-wrap gap-x-2 text-sm text-gray-400">
                <time dateTime={post.published.iso}>{post.published.text}</time>
                <span aria-hidden="true">·</span>
                <span>{post.readingTime}</span>
              </p>
              <p className="mt-3 line-clamp-3 text-sm text-gray-400">{post.summary}</p>
            </li>
          ))}
        </ul>
        <p className="mt-8">
          <a href={teaser.writing} data-track="writing:all" className="btn btn-secondary">
            {texts.t('writing.all')}
          </a>
        </p>
      </div>
    </section>
  );
}
