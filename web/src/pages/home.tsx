import { Suspense, useEffect } from 'react';
import { useContent } from '../content/context';
import { useWritingTeaser } from '../content/writing-teaser';
import { Navigation } from '../components/navigation';
import { Hero } from '../sections/hero';
import { About } from '../sections/about';
import { Skills } from '../sections/skills';
import { Footer } from '../sections/footer';
import { BelowTheFold } from './below-the-fold';

/** The element id a fragment names; a malformed escape such as `/#%` is taken as written. */
function fragment(hash: string): string {
  const raw = hash.slice(1);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The public portfolio page: the sections the owner shows, in the navigation's order, then the footer. */
export function HomePage() {
  const content = useContent();
  const { sections } = content.appearance;
  const teaser = useWritingTeaser();
  // A deep link such as /#contact: the browser looked for the anchor before the page was drawn.
  useEffect(() => {
    const id = fragment(window.location.hash);
    if (id) document.getElementById(id)?.scrollIntoView({ behavior: 'instant', block: 'start' });
  }, []);

  // Each section in a Suspense boundary of its own: React hydrates the page's frame (the
  // navigation) at once, then the sections one after another in work that yields to the browser
  // every few milliseconds, instead of one long task that would hold up a tap (Total Blocking
  // Time). A tap on a section not yet hydrated hydrates it first, and the tap is replayed.
  return (
    <>
      <Navigation brand={content.profile.name} resume={content.resume.path} sections={sections} writing={teaser?.writing} />
      <main id="main" tabIndex={-1} className="outline-none">
        <Suspense fallback={null}>
          <Hero />
        </Suspense>
        {sections.about && (
          <Suspense fallback={null}>
            <About />
          </Suspense>
        )}
        {sections.skills && (
          <Suspense fallback={null}>
            <Skills />
          </Suspense>
        )}
        <Suspense fallback={null}>
          <BelowTheFold />
        </Suspense>
      </main>
      <Suspense fallback={null}>
        <Footer />
      </Suspense>
    </>
  );
}
