import { Suspense, useEffect } from 'react';
import { useContent } from '../content/context';
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

/** The public portfolio page: the sections in the navigation's order, then the footer. */
export function HomePage() {
  const content = useContent();
  // A deep link such as /#contact: the browser looked for the anchor before the page was drawn.
  useEffect(() => {
    const id = fragment(window.location.hash);
    if (id) document.getElementById(id)?.scrollIntoView({ behavior: 'instant', block: 'start' });
  }, []);

  return (
    <>
      <Navigation brand={content.profile.name} resume={content.resume.path} />
      <main id="main" tabIndex={-1} className="outline-none">
        <Hero />
        <About />
        <Skills />
        <Suspense fallback={null}>
          <BelowTheFold />
        </Suspense>
      </main>
      <Footer />
    </>
  );
}
