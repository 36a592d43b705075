import { useEffect } from 'react';
import { profile } from '../content/profile';
import { Navigation } from '../components/navigation';
import { Hero } from '../sections/hero';
import { About } from '../sections/about';
import { Skills } from '../sections/skills';
import { Projects } from '../sections/projects';
import { Experience } from '../sections/experience';
import { Contact } from '../sections/contact';
import { Footer } from '../sections/footer';

/** The element id a fragment names; a malformed escape such as `/#%` is taken as written. */
function fragment(hash: string): string {
  const raw = hash.slice(1);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The public portfolio page: the sections in the navigation's order, then the footer. */
export function HomePage() {
  // A deep link such as /#contact: the browser looked for the anchor before the page was drawn.
  useEffect(() => {
    const id = fragment(window.location.hash);
    if (id) document.getElementById(id)?.scrollIntoView({ behavior: 'instant', block: 'start' });
  }, []);

  return (
    <>
      <Navigation brand={profile.name} resume={profile.resume} />
      <main id="main" tabIndex={-1} className="outline-none">
        <Hero />
        <About />
        <Skills />
        <Projects />
        <Experience />
        <Contact />
      </main>
      <Footer />
    </>
  );
}
