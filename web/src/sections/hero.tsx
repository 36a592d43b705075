import { useEffect, useRef, useState } from 'react';
import { Icon } from '../components/icon';
import { useContent } from '../content/context';
import { imageFor } from '../content/media';
import { SocialLinks } from '../components/social-links';
import { Typewriter } from '../components/typewriter';
import { useTexts } from '../i18n/locale';

/** The first screen: who, what, and the two ways forward. The photo is the page's only eager image. */
export function Hero() {
  const content = useContent();
  const texts = useTexts();
  const photo = imageFor(content, content.profile.photo);
  const { sections, available } = content.appearance;
  // Whether the typewriter's line is on the screen: unknown until the observer first answers (the
  // page may open at another section). The hero's motion (the typewriter, which the spec starts
  // when its line scrolls into view, the caret's blink, the availability dot's ping) runs only
  // while it is, and rests while the visitor reads further down: an idle page then spends nothing
  // on what nobody sees (index.css pauses the animations).
  const [inView, setInView] = useState<boolean>();
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    // A quick scroll can bring several changes in one call: the last is the line's state now.
    const observer = new IntersectionObserver((entries) => setInView(entries.at(-1)!.isIntersecting));
    observer.observe(line.current!);
    return () => observer.disconnect();
  }, []);
  return (
    <section
      id="home"
      aria-labelledby="home-title"
      data-resting={inView === false || undefined}
      className="relative overflow-hidden pt-24 pb-16 md:pt-32 md:pb-20"
    >
      <div aria-hidden="true" className="hero-glow pointer-events-none absolute inset-0 -z-10" />
      <div className="container-page grid items-center gap-10 md:grid-cols-[minmax(0,1.25fr)_minmax(0,1fr)] md:gap-16">
        <div className="order-2 md:order-1">
          {available && (
            <p className="inline-flex items-center gap-2 rounded-full border border-blue-500/30 bg-blue-500/10 px-3 py-1 text-sm font-medium text-blue-200">
              <span aria-hidden="true" className="relative flex size-2">
                <span className="status-ping absolute inline-flex size-full rounded-full bg-emerald-400 opacity-75" />
                <span className="relative inline-flex size-2 rounded-full bg-emerald-400" />
              </span>
              {texts.t('hero.available')}
            </p>
          )}
          <h1 id="home-title" className="mt-6 text-title font-extrabold tracking-tight md:text-display">
            {/* The name is an isolated run: it keeps its own direction inside a right-to-left greeting. */}
            {texts.rich('hero.greeting', { name: <bdi className="p-name text-blue-500">{content.profile.name}</bdi> })}
          </h1>
          <p ref={line} className="mt-4 min-h-[1.6em] text-xl font-semibold text-gray-200 md:text-2xl">
            <span className="text-gray-400">{texts.t('hero.iAm')}</span>
            <Typewriter phrases={content.typewriterPhrases} running={inView === true} className="text-white" />
          </p>
          <p className="lead mt-6">{content.profile.intro}</p>
          {(sections.projects || sections.contact) && (
            <div className="mt-6 flex flex-wrap gap-3">
              {sections.projects && (
                <a href="#projects" className="btn btn-primary px-4 sm:px-5">
                  {texts.t('hero.viewWork')}
                  <Icon name="arrow-right" className="size-4 mirror-rtl" />
                </a>
              )}
              {sections.contact && (
                <a href="#contact" className={`btn px-4 sm:px-5 ${sections.projects ? 'btn-secondary' : 'btn-primary'}`}>
                  {texts.t('hero.contact')}
                </a>
              )}
            </div>
          )}
          <div className="mt-6">
            <SocialLinks kinds={['github', 'linkedin']} label={texts.t('hero.profiles')} />
          </div>
        </div>
        <div className="order-1 flex justify-center md:order-2 md:justify-end">
          <div className="relative w-60 sm:w-72 md:w-[22rem]">
            <div aria-hidden="true" className="blob absolute -inset-3 bg-gradient-to-br from-blue-500/50 to-blue-900/20 blur-md" />
            {photo && (
            <img
              src={photo.src}
              srcSet={photo.srcSet}
              sizes="(min-width: 900px) 352px, (min-width: 640px) 288px, 240px"
              width={photo.width}
              height={photo.height}
              alt={photo.alt}
              fetchPriority="high"
              elementtiming="photo"
              className="u-photo blob relative aspect-square w-full border-4 border-gray-900 object-cover shadow-2xl shadow-blue-950/60"
            />
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
