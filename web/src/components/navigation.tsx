import { useEffect, useId, useRef, useState } from 'react';
import type { Sections } from '../content/document';
import { useLocale, useTexts } from '../i18n/locale';
import type { Chosen } from './follow-sections';
import { Icon } from './icon';
import { SchemeToggle } from './scheme-toggle';

export const NAV_ITEMS = ['home', 'about', 'skills', 'projects', 'experience', 'contact'] as const;

type SectionId = (typeof NAV_ITEMS)[number];

/**
 * The published languages in one menu: a button naming the page's language in itself, opening a
 * list of the languages, each named in itself and linking to its own pre-rendered page. The list
 * is a popover the button opens by itself, so it works before (and without) JavaScript; the
 * browser closes it on Escape or a click elsewhere. When the header is short of room the button
 * shows its icon only (`data-fit~=short`, see `fit`), its name still read to screen readers.
 */
function LanguageMenu() {
  const { tag, languages } = useLocale();
  const label = useTexts().t('nav.languages');
  const listId = useId();
  if (languages.length < 2) return null;
  return (
    <>
      <button type="button" popoverTarget={listId} title={label} className="lang-button">
        <Icon name="languages" className="size-5" />
        <span className="lang-name">{languages.find((language) => language.tag === tag)?.name}</span>
      </button>
      <ul id={listId} popover="" aria-label={label} className="lang-menu">
        {languages.map((language) => (
          <li key={language.tag}>
            <a
              href={language.href}
              lang={language.tag}
              hrefLang={language.tag}
              aria-current={language.tag === tag ? 'page' : undefined}
              className="lang-link"
            >
              {language.name}
            </a>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * Fits the header's row to its width, measured from its texts rather than from a breakpoint per
 * language: the first of these that leaves the brand whole and the row within the screen is kept
 * (`data-fit` on the header): the full navigation; the same with the language button's icon only;
 * the navigation in the menu; the menu and the icon only. Below 900 px the stylesheet folds the
 * navigation into the menu anyway (and without JavaScript, as it always has).
 */
function fit(header: HTMLElement) {
  const row = header.querySelector('nav')!;
  const brand = row.firstElementChild!;
  for (const state of ['', 'short', 'menu', 'menu short']) {
    header.dataset.fit = state;
    if (row.scrollWidth <= row.clientWidth && brand.scrollWidth <= brand.clientWidth) return;
  }
}

/** The classes of an item of the navigation, the current one or another. */
function itemClass(current?: boolean): string {
  return `flex min-h-12 items-center rounded-lg px-4 text-base font-medium whitespace-nowrap transition-colors duration-200 ease-out bar:relative bar:min-h-11 bar:rounded-md bar:px-2 bar:text-sm lg:bar:px-3 ${
    current
      ? 'bg-blue-600/15 text-white ring-1 ring-blue-500/40 bar:bg-transparent bar:ring-0 bar:after:absolute bar:after:inset-x-2 lg:bar:after:inset-x-3 bar:after:bottom-1.5 bar:after:h-0.5 bar:after:rounded-full bar:after:bg-blue-500'
      : 'text-gray-300 hover:bg-gray-800 hover:text-white bar:text-gray-400 bar:hover:bg-transparent'
  }`;
}

/**
 * The fixed top navigation. Exactly one item is current: the section in view, followed by an
 * IntersectionObserver as the reader scrolls (Home at first). Choosing one makes it current until
 * the scroll it starts ends (`scrollend`, else a pause in scrolling), lets the browser scroll to its
 * anchor and closes the menu. A section the owner hides has no item. Below 900 px, or wherever
 * the row does not fit (`fit`), the items move into a menu opened by a button. On another page
 * (the error page, a case study's, a post's), `home` is the portfolio's address: the items lead to
 * its sections and none is current. `writing`, the writing index's address, adds a Writing item
 * after the sections' (where there are posts): never the section in view, it is the current page
 * on the index's pages (`writingCurrent`).
 */
export function Navigation({
  brand,
  resume,
  sections,
  home = '',
  writing,
  writingCurrent,
}: {
  brand: string;
  resume: string;
  sections: Sections;
  home?: string;
  writing?: string;
  writingCurrent?: boolean;
}) {
  const texts = useTexts();
  const [active, setActive] = useState<SectionId>('home');
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const header = useRef<HTMLElement>(null);
  const chosen: Chosen = useRef(undefined);

  // Escape closes the mobile menu.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  // The row refits whenever its width changes or a font arrives; once the page is interactive,
  // the current item follows the section in view (follow-sections.ts).
  useEffect(() => {
    const element = header.current!;
    const refit = () => fit(element);
    // Every browser the page supports has it; a DOM without layout (the unit tests') has not.
    const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(refit) : undefined;
    resized?.observe(element);
    document.fonts?.addEventListener('loadingdone', refit);
    let live = true;
    let unfollow = () => {};
    void import('./follow-sections').then((module) => {
      if (live) unfollow = module.followSections(NAV_ITEMS, setActive as (id: string) => void, chosen);
    });
    return () => {
      live = false;
      unfollow();
      resized?.disconnect();
      document.fonts?.removeEventListener('loadingdone', refit);
    };
  }, [sections]);

  const choose = (id: SectionId) => {
    setActive(id);
    setOpen(false);
    // Held until the scroll ends; a second at most when nothing scrolls.
    clearTimeout(chosen.current);
    chosen.current = setTimeout(() => {
      chosen.current = undefined;
    }, 1000);
  };
  const items = NAV_ITEMS.filter((id) => id === 'home' || sections[id]).map((id) => {
    const current = !home && active === id;
    return (
      <li key={id}>
        <a href={`${home}#${id}`} aria-current={current ? 'true' : undefined} onClick={() => choose(id)} className={itemClass(current)}>
          {texts.t(`nav.${id}`)}
        </a>
      </li>
    );
  });
  if (writing) {
    items.push(
      <li key="writing">
        <a href={writing} aria-current={writingCurrent ? 'page' : undefined} className={itemClass(writingCurrent)}>
          {texts.t('nav.writing')}
        </a>
      </li>,
    );
  }

  return (
    <header ref={header} className="fixed inset-x-0 top-0 z-40 border-b border-gray-800/80 bg-gray-950/85 backdrop-blur-md">
      <a href="#main" className="sr-only-focusable btn btn-primary absolute top-2 start-2 z-50">
        {texts.t('nav.skip')}
      </a>
      <nav aria-label={texts.t('nav.label')} className="container-page flex h-16 items-center justify-between gap-2">
        <a
          href={`${home}#home`}
          onClick={() => choose('home')}
          className="min-w-0 truncate py-2 text-lg font-bold tracking-tight text-white"
        >
          {/* The name and its dot in their own direction: "Alex Morgan." on a right-to-left page too. */}
          <bdi>
            {brand}
            <span className="text-blue-500">.</span>
          </bdi>
        </a>

        <div
          id={menuId}
          className={`${open ? '' : 'hidden'} absolute inset-x-0 top-16 max-h-[calc(100dvh-4rem)] overflow-y-auto border-y border-gray-800 bg-gray-950 px-5 py-4 shadow-2xl shadow-black/60 bar:static bar:block bar:max-h-none bar:overflow-visible bar:border-0 bar:bg-transparent bar:p-0 bar:shadow-none`}
        >
          <ul className="grid gap-1 bar:flex bar:items-center">{items}</ul>
          <a href={resume} download className="btn btn-primary mt-4 w-full bar:hidden" onClick={() => setOpen(false)}>
            <Icon name="download" className="size-4" />
            {texts.t('resume.download')}
          </a>
        </div>

        <div className="flex shrink-0 items-center gap-2">
          <LanguageMenu />
          <SchemeToggle />
          <a href={resume} download className="btn btn-primary hidden bar:inline-flex bar:px-4 bar:text-sm">
            <Icon name="download" className="size-4" />
            {texts.t('resume.download')}
          </a>
          <button
            type="button"
            className="icon-btn bar:hidden"
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
