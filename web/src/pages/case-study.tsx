import type { ReactNode } from 'react';
import { ErrorBoundary } from '../components/error-boundary';
import { Icon } from '../components/icon';
import { Markdown, type Block } from '../components/markdown';
import { Navigation } from '../components/navigation';
import type { CaseStudyView } from '../content/case-study-view';
import { useContent } from '../content/context';
import type { CaseStudy, CaseLinkKind } from '../content/document.generated';
import { imageFor, type ResponsiveImage } from '../content/media';
import { addEnglish, useTexts } from '../i18n/locale';
import englishTexts from '../i18n/en.json?caseStudy&part';
import { Footer } from '../sections/footer';
import { ErrorView } from './error-view';
import { SiteChrome } from './site-chrome';

addEnglish(englishTexts);

/**
 * One of the case study's own pictures: an upload, or a placeholder's bundled picture, each given
 * by the server where it is served (a path on this site).
 */
function studyImage(study: CaseStudy, id: string): ResponsiveImage | undefined {
  const item = study.media.find((entry) => entry.id === id);
  const sources = item?.sources.filter((source) => source.src.startsWith('/'));
  const smallest = sources?.[0];
  if (!item || !smallest) return undefined;
  return {
    src: smallest.src,
    srcSet: sources.map((source) => `${source.src} ${source.width}w`).join(', '),
    width: item.width,
    height: item.height,
    alt: item.alt,
  };
}

/** A part of the case study: a heading and what it says; none when it says nothing. */
function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-12">
      <h2 id={id} className="text-2xl font-bold tracking-tight text-white">
        {title}
      </h2>
      <div className="mt-4 text-gray-300">{children}</div>
    </section>
  );
}

const LINK_ICONS: Record<CaseLinkKind, 'code' | 'external-link'> = {
  code: 'code',
  live: 'external-link',
  article: 'external-link',
};

const hasText = (blocks: Block[]) => blocks.length > 0;

/** The case study itself: what the page shows between the header and the footer. */
function CaseStudyArticle({ view }: { view: CaseStudyView }) {
  const content = useContent();
  const texts = useTexts();
  const { study } = view;
  const project = content.projects.find((entry) => entry.id === study.project);
  const title = project?.title ?? study.slug;
  const picture = project ? imageFor(content, project.image) : undefined;
  const gallery = study.gallery
    .map((item) => ({ item, image: studyImage(study, item.image) }))
    .filter((entry): entry is { item: (typeof study.gallery)[number]; image: ResponsiveImage } => entry.image !== undefined);
  return (
    <article data-case-study={study.project} aria-labelledby="case-study-title" className="pt-24 pb-16 sm:pt-28">
      <div className="container-page max-w-3xl">
        <nav aria-label={texts.t('caseStudy.breadcrumbs')} className="text-sm text-gray-400">
          <ol className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <li>
              <a href={view.home} className="link">
                <bdi>{content.profile.name}</bdi>
              </a>
            </li>
            <li aria-hidden="true">/</li>
            <li>
              <a href={`${view.home}#projects`} className="link">
                {texts.t('nav.projects')}
              </a>
            </li>
            <li aria-hidden="true">/</li>
            <li>
              <a href={view.path} aria-current="page" className="text-gray-300">
                {title}
              </a>
            </li>
          </ol>
        </nav>
        <p className="mt-8 text-sm font-semibold tracking-wide text-blue-300 uppercase">{texts.t('caseStudy.label')}</p>
        <h1 id="case-study-title" className="mt-2 text-3xl font-bold tracking-tight text-white sm:text-5xl">
          {title}
        </h1>
        <p className="lead mt-5">{study.summary}</p>
        {study.technologies.length > 0 && (
          <ul aria-label={texts.t('caseStudy.technologies')} className="mt-6 flex flex-wrap gap-1.5">
            {study.technologies.map((tech) => (
              <li key={tech} className="tag" dir="auto">
                {tech}
              </li>
            ))}
          </ul>
        )}
      </div>
      {picture && (
        <div className="container-page mt-10 max-w-4xl">
          <img
            src={picture.src}
            srcSet={picture.srcSet}
            sizes="(min-width: 960px) 896px, 92vw"
            width={picture.width}
            height={picture.height}
            alt={picture.alt}
            fetchPriority="high"
            decoding="async"
            className="w-full rounded-xl border border-gray-800"
          />
        </div>
      )}
      <div className="container-page max-w-3xl">
        {study.figures.length > 0 && (
          <section aria-labelledby="case-study-figures" className="mt-12">
            <h2 id="case-study-figures" className="sr-only">
              {texts.t('caseStudy.figures')}
            </h2>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              {study.figures.map((figure, index) => (
                <div key={index} className="flex flex-col-reverse rounded-xl border border-gray-800 bg-gray-800/30 p-4">
                  <dt className="mt-1 text-sm text-gray-400">{figure.label}</dt>
                  <dd className="text-2xl font-bold text-white sm:text-3xl" dir="ltr">
                    <bdi>
                      {view.figures[index]}
                      {figure.unit && <span className="ms-0.5 text-lg font-semibold text-blue-300">{figure.unit}</span>}
                    </bdi>
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        )}
        <Part id="case-study-problem" title={texts.t('caseStudy.problem')}>
          <Markdown blocks={view.texts.problem} />
        </Part>
        <Part id="case-study-role" title={texts.t('caseStudy.role')}>
          <Markdown blocks={view.texts.role} />
          {hasText(view.texts.team) && (
            <>
              <h3 className="mt-6 text-lg font-semibold text-white">{texts.t('caseStudy.team')}</h3>
              <Markdown blocks={view.texts.team} className="mt-2" />
            </>
          )}
        </Part>
        {hasText(view.texts.constraints) && (
          <Part id="case-study-constraints" title={texts.t('caseStudy.constraints')}>
            <Markdown blocks={view.texts.constraints} />
          </Part>
        )}
        {study.decisions.length > 0 && (
          <Part id="case-study-decisions" title={texts.t('caseStudy.decisions')}>
            <ol className="grid gap-6">
              {study.decisions.map((decision, index) => (
                <li key={index} className="border-s-2 border-blue-500/60 ps-5">
                  <h3 className="text-lg font-semibold text-white">{decision.title}</h3>
                  <Markdown blocks={view.texts.decisions[index] ?? []} className="mt-2" />
                </li>
              ))}
            </ol>
          </Part>
        )}
        <Part id="case-study-outcome" title={texts.t('caseStudy.outcome')}>
          <Markdown blocks={view.texts.outcome} />
        </Part>
        {gallery.length > 0 && (
          <Part id="case-study-gallery" title={texts.t('caseStudy.gallery')}>
            <ul className="grid gap-8">
              {gallery.map(({ item, image }) => (
                <li key={item.image}>
                  <figure>
                    <img
                      src={image.src}
                      srcSet={image.srcSet}
                      sizes="(min-width: 800px) 736px, 92vw"
                      width={image.width}
                      height={image.height}
                      alt={image.alt}
                      loading="lazy"
                      decoding="async"
                      className="w-full rounded-xl border border-gray-800"
                    />
                    {item.caption && <figcaption className="mt-3 text-sm text-gray-400">{item.caption}</figcaption>}
                  </figure>
                </li>
              ))}
            </ul>
          </Part>
        )}
        {study.links.length > 0 && (
          <Part id="case-study-links" title={texts.t('caseStudy.links')}>
            <ul className="flex flex-wrap gap-3">
              {study.links.map((link, index) => (
                <li key={index}>
                  <a
                    href={link.url}
                    rel="noopener noreferrer"
                    data-track={`case-study:${study.project}:link:${index}`}
                    className="btn btn-secondary px-4 text-sm"
                  >
                    <Icon name={LINK_ICONS[link.kind]} className="size-4" />
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </Part>
        )}
      </div>
      <nav aria-label={texts.t('caseStudy.more')} className="container-page mt-16 max-w-3xl border-t border-gray-800 pt-8">
        <ul className="grid gap-3 sm:grid-cols-2">
          {view.previous && (
            <li>
              <a href={view.previous.path} rel="prev" className="case-study-step">
                <span className="text-sm text-gray-400">{texts.t('caseStudy.previous')}</span>
                <span className="font-semibold text-white">{view.previous.title}</span>
              </a>
            </li>
          )}
          {view.next && (
            <li className="sm:col-start-2">
              <a href={view.next.path} rel="next" className="case-study-step sm:text-end">
                <span className="text-sm text-gray-400">{texts.t('caseStudy.next')}</span>
                <span className="font-semibold text-white">{view.next.title}</span>
              </a>
            </li>
          )}
        </ul>
        <p className="mt-6">
          <a href={`${view.home}#projects`} className="link">
            {texts.t('caseStudy.back')}
          </a>
        </p>
      </nav>
    </article>
  );
}

/**
 * A case study's page (`/projects/<slug>/`, `/de/projects/<slug>/`), as it is pre-rendered at
 * publish and hydrated: the site's header (its items leading to the sections of the language's
 * page, and to the writing index where the home page's header has that item), the case study, the
 * footer. It carries none of the landing's sections.
 */
export function CaseStudyPage({ view }: { view: CaseStudyView }) {
  const content = useContent();
  return (
    <ErrorBoundary fallback={<ErrorView notFound={false} />}>
      <SiteChrome>
        <Navigation
          brand={content.profile.name}
          resume={content.resume.path}
          sections={content.appearance.sections}
          home={view.home}
          writing={view.writing ?? undefined}
        />
        <main id="main" tabIndex={-1} className="outline-none">
          <CaseStudyArticle view={view} />
        </main>
        <Footer />
      </SiteChrome>
    </ErrorBoundary>
  );
}
