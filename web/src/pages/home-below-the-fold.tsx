import { useContent } from '../content/context';
import { Projects } from '../sections/projects';
import { Writing } from '../sections/writing';
import { Experience } from '../sections/experience';
import { Contact } from '../sections/contact';

/**
 * The home page's sections far below the fold (the latest posts after the projects, when there
 * are posts), a chunk of their own: they are in the pre-rendered
 * HTML, so a visitor reads them at once, and React hydrates them as soon as their code arrives,
 * just after the rest of the page.
 */
export default function HomeBelowTheFold() {
  const { sections } = useContent().appearance;
  return (
    <>
      {sections.projects && <Projects />}
      <Writing />
      {sections.experience && <Experience />}
      {sections.contact && <Contact />}
    </>
  );
}
