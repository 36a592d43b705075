import { useContent } from '../content/context';
import { imageFor, lightVariant } from '../content/media';
import { SectionHeading } from './section-heading';

/** A card per technology: its logo (in the light scheme, its variant for white cards if it has one) and its name. */
export function Skills() {
  const content = useContent();
  return (
    <section id="skills" aria-labelledby="skills-title" className="section">
      <div className="container-page">
        <SectionHeading id="skills-title" text={content.sections.skills} />
        <ul className="mt-8 grid grid-cols-3 gap-3 sm:grid-cols-4 md:grid-cols-7">
          {content.skills.map((skill) => {
            const onLight = lightVariant(content, skill.logo);
            return (
              <li key={skill.name} className="card flex flex-col items-center gap-2 px-2 py-3.5 text-center">
                <img
                  src={imageFor(content, skill.logo)?.src}
                  alt=""
                  width={40}
                  height={40}
                  loading="lazy"
                  decoding="async"
                  className={onLight ? 'size-8 only-dark' : 'size-8'}
                />
                {onLight && (
                  <img src={onLight} alt="" width={40} height={40} loading="lazy" decoding="async" className="size-8 only-light" />
                )}
                <span dir="auto" className="text-sm font-medium text-gray-100">
                  {skill.name}
                </span>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
