import { useEffect, useId, useState } from 'react';
import type { Sections } from '../content/document';
import { useLocale, useTexts } from '../i18n/locale';
import { Icon } from './icon';
import { SchemeToggle } from './scheme-toggle';

export const NAV_ITEMS = ['home', 'about', 'skills', 'projects', 'experience', 'contact'] as const;

type SectionId = (typeof NAV_ITEMS)[number];

/**
 * A link per published language, each to its own pre-rendered page: the language's short tag on
 * screen, its name in itself for screen readers and as a tooltip, in its own language.
 */
function LanguageSwitch() {
  const { tag, languages } = useLocale();
  const texts = useTexts();
  if (languages.length < 2) return null;
  return (
    <ul aria-label={texts.t('nav.languages')} className="flex items-center">
      {languages.map((language) => (
        <li key={language.tag}>
          <a
            href={language.href}
            lang={language.tag}
            hrefLang={language.tag}
            title={language.name}
            aria-current={language.tag === tag ? 'page' : undefined}
            className="lang-link"
          >
            <span aria-hidden="true">{language.tag.split('-')[0]}</span>
            <span className="sr-only">{language.name}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The fixed top navigation. Exactly one item is current (Home at first); choosing one makes it
 * current, lets the browser scroll to its anchor and closes the mobile menu. A section the owner
 * hides has no item. Below 900 px the
 * items move into a menu opened by a button. On another page (the error page), `home` is the
 * portfolio's address: the items lead to its sections and none is current.
 */
export function Navigation({ brand, resume, sections, home = '' }: { brand: string; resume: string; sections: Sections; home?: string }) {
  const texts = useTexts();
  const [active, setActive] = useState<SectionId>('home');
  const [open, setOpen] = useState(false);
  const menuId = useId();

  // Escape closes the mobile menu.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const choose = (id: SectionId) => {
    setActive(id);
    setOpen(false);
  };

  const items = NAV_ITEMS.filter((id) => id === 'home' || sections[id]).map((id) => {
    const current = !home && active === id;
    return (
      <li key={id}>
        <a
          href={`${home}#${id}`}
          aria-current={current ? 'true' : undefined}
          onClick={() => choose(id)}
          className={`flex min-h-12 items-center rounded-lg px-4 text-base font-medium transition-colors duration-200 ease-out md:relative md:min-h-11 md:rounded-md md:px-2 md:text-sm lg:px-3 ${
            current
              ? 'bg-blue-600/15 text-white ring-1 ring-blue-500/40 md:bg-transparent md:ring-0 md:after:absolute md:after:inset-x-2 lg:after:inset-x-3 md:after:bottom-1.5 md:after:h-0.5 md:after:rounded-full md:after:bg-blue-500'
              : 'text-gray-300 hover:bg-gray-800 hover:text-white md:text-gray-400 md:hover:bg-transparent'
          }`}
        >
          {texts.t(`nav.${id}`)}
        </a>
      </li>
    );
  });

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-gray-800/80 bg-gray-950/85 backdrop-blur-md">
      <a href="#main" className="sr-only-focusable btn btn-primary absolute top-2 start-2 z-50">
        {texts.t('nav.skip')}
      </a>
      <nav aria-label={texts.t('nav.label')} className="container-page flex h-16 items-center justify-between gap-4">
        <a
          href={`${home}#home`}
          onClick={() => choose('home')}
          className="inline-flex min-h-11 shrink-0 items-center text-lg font-bold tracking-tight whitespace-nowrap text-white"
        >
          {/* The name and its dot in their own direction: "Alex Morgan." on a right-to-left page too. */}
          <bdi>
            {brand}
            <span className="text-blue-500">.</span>
          </bdi>
        </a>

        <div
          id={menuId}
          className={`${open ? 'max-md:block' : 'max-md:hidden'} max-md:absolute max-md:inset-x-0 max-md:top-16 max-md:max-h-[calc(100dvh-4rem)] max-md:overflow-y-auto max-md:border-y max-md:border-gray-800 max-md:bg-gray-950 max-md:px-5 max-md:py-4 max-md:shadow-2xl max-md:shadow-black/60`}
        >
          <ul className="grid gap-1 md:flex md:items-center">{items}</ul>
          <a href={resume} download className="btn btn-primary mt-4 w-full md:hidden" onClick={() => setOpen(false)}>
            <Icon name="download" className="size-4" />
            {texts.t('resume.download')}
          </a>
        </div>

        <div className="flex items-center gap-2">
          <LanguageSwitch />
          <SchemeToggle />
          <a href={resume} download className="btn btn-primary hidden md:inline-flex md:px-4 md:text-sm">
            <Icon name="download" className="size-4" />
            {texts.t('resume.download')}
          </a>
          <button
            type="button"
            className="icon-btn md:hidden"
            aria-expanded={open}
            aria-controls={menuId}
            aria-label={texts.t(open ? 'nav.closeMenu' : 'nav.openMenu')}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <Icon name="x" className="size-5" /> : <Icon name="menu" className="size-5" />}
          </button>
        </div>
      </nav>

    </header>
  );
}
