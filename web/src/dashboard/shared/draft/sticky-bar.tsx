/**
 * An editor's bar, in view however far the owner scrolls: just below the dashboard's header, with
 * the page's scroll padding keeping focused fields below it, and `--below-bar` (its bottom) for
 * what sticks under it (a preview beside the form). The page's draft bar and a post's use it.
 */
import { useLayoutEffect, useRef, type ReactNode } from 'react';

/** Keeps the bar just below the dashboard's header, and focused fields below the bar (scroll padding). */
function useBelowHeader() {
  const bar = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const element = bar.current!;
    const header = window.document.querySelector('header');
    const root = window.document.documentElement;
    const place = () => {
      const top = header && getComputedStyle(header).position === 'sticky' ? header.offsetHeight : 0;
      const below = top + element.offsetHeight;
      element.style.top = `${top}px`;
      root.style.scrollPaddingTop = `${below + 8}px`;
      element.parentElement?.style.setProperty('--below-bar', `${below + 16}px`);
    };
    const observer = new ResizeObserver(place);
    if (header) observer.observe(header);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingTop = '';
    };
  }, []);
  return bar;
}

export function StickyBar({ label, children }: { label: string; children: ReactNode }) {
  const bar = useBelowHeader();
  return (
    <section
      ref={bar}
      aria-label={label}
      className="sticky z-10 -mx-5 border-b border-gray-800 bg-gray-950/95 px-5 py-2 backdrop-blur sm:-mx-8 sm:px-8"
    >
      {children}
    </section>
  );
}
