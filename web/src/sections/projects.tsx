import { useContext, useState } from 'react';
import { Icon } from '../components/icon';
import { useContent } from '../content/context';
import { CaseStudyLinks } from '../content/case-study-links';
import { imageFor } from '../content/media';
import { categories, projectsFor, type Category } from '../content/projects';
import { addEnglish, useTexts } from '../i18n/locale';
import englishTexts from '../i18n/en.json?projects&part';
import { SectionHeading } from './section-heading';

addEnglish(englishTexts);

/** The projects, filterable by stack. Each card is 450 px high with its screenshot, labels and links. */
export function Projects() {
  const [category, setCategory] = useState<Category>('All');
  // The count is announced once a filter is chosen; the page arrives with the status empty.
  const [filtered, setFiltered] = useState(false);
  const content = useContent();
  const texts = useTexts();
  const links = useContext(CaseStudyLinks);
  const shown = projectsFor(category, content.projects).map((project) => ({
    ...project,
    picture: imageFor(content, project.image),
    caseStudy: links[project.id],
  }));

  return (
    <section id="projects" aria-labelledby="projects-title" className="section bg-gray-900">
      <div className="container-page">
        <SectionHeading id="projects-title" text={content.sections.projects} />
        <div role="group" aria-label={texts.t('projects.filter')} className="mt-6 flex flex-wrap gap-2">
          {categories.map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={category === name}
              onClick={() => {
                setCategory(name);
                setFiltered(true);
              }}
              className={`btn px-3 sm:px-5 ${category === name ? 'btn-primary' : 'btn-secondary'}`}
            >
              {texts.t(`projects.${name.toLowerCase() as Lowercase<Category>}`)}
            </button>
          ))}
        </div>
        <p className="sr-only" role="status">
          {filtered ? texts.plural('projects.shown', shown.length) : ''}
        </p>
        <ul className="mt-8 grid gap-5 sm:grid-cols-2">
          {shown.map((project) => (
            <li key={project.title} className="card flex h-[450px] flex-col overflow-hidden" data-testid="project-card">
              {project.picture && (
              <img
                src={project.picture.src}
                srcSet={project.picture.srcSet}
                sizes="(min-width: 1200px) 568px, (min-width: 640px) 46vw, 92vw"
                width={project.picture.width}
                height={project.picture.height}
                alt={project.picture.alt}
                loading="lazy"
                decoding="async"
                className="h-48 w-full shrink-0 border-b md:h-56 border-gray-800 object-cover object-top"
              />
              )}
              <div className="flex min-h-0 flex-1 flex-col p-5">
                <div className="flex items-center justify-between gap-3">
                  <h3 className="text-lg font-semibold">{project.title}</h3>
                  <span className="text-xs font-medium tracking-wide text-blue-300 uppercase">{texts.t(`projects.${project.stack}`)}</span>
                </div>
                <p className={`mt-2 text-sm text-gray-400 ${project.caseStudy ? 'line-clamp-2' : 'line-clamp-3'}`}>{project.description}</p>
                {project.caseStudy && (
                  <a
                    href={project.caseStudy}
                    data-track={`project:${project.id}:case-study`}
                    aria-label={texts.t('projects.caseStudyOf', { title: project.title })}
                    className="link mt-2 w-fit text-sm font-medium"
                  >
                    {texts.t('projects.caseStudy')}
                  </a>
                )}
                <ul aria-label={texts.t('projects.technologies')} className="mt-3 flex flex-wrap gap-1.5">
                  {/* A technology's name keeps its own direction: "C#" reads "C#" on a right-to-left page too. */}
                  {project.technologies.map((tech) => (
                    <li key={tech} className="tag" dir="auto">
                      {tech}
                    </li>
                  ))}
                </ul>
                <div className="mt-auto flex gap-3 pt-4">
                  <a
                    href={project.codeUrl}
                    data-track={`project:${project.id}:code`}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={texts.t('projects.codeOf', { title: project.title })}
                    className="btn btn-secondary flex-1 px-3 md:text-sm"
                  >
                    <Icon name="code" className="size-4" />
                    {texts.t('projects.code')}
                  </a>
                  <a
                    href={project.demoUrl}
                    data-track={`project:${project.id}:demo`}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={texts.t('projects.demoOf', { title: project.title })}
                    className="btn btn-primary flex-1 px-3 md:text-sm"
                  >
                    <Icon name="external-link" className="size-4" />
                    {texts.t('projects.demo')}
                  </a>
                </div>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
