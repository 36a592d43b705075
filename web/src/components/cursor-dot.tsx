import { useEffect, useRef } from 'react';
import { useMediaQuery } from './use-media-query';

const TEXT_ENTRY = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

/** How far the dot trails the pointer's hotspot, down and to the right, in px: beside what it points at, never on it. */
const DOT_OFFSET = 20;

/**
 * A small accent dot that follows a fine pointer (mouse, trackpad). It is rendered once by the
 * root layout on every page, only after mount and only when `(pointer: fine)` matches; it trails
 * the hotspot by `DOT_OFFSET`, so it never covers what the pointer points at, never takes clicks
 * (pointer-events: none), hides over form fields so the text cursor stays visible, and hides while
 * the visitor types until the pointer moves again.
 * One pointermove listener, removed on unmount (so StrictMode's double effects leave one).
 */
export function CursorDot() {
  const enabled = useMediaQuery('(pointer: fine)');
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!enabled) return;
    // Its own, not only the stylesheet's: the whole stylesheet may apply a moment after the dot appears.
    if (ref.current) ref.current.style.pointerEvents = 'none';
    const onMove = (event: PointerEvent) => {
      const dot = ref.current;
      if (!dot) return;
      const target = event.target instanceof Element ? event.target : null;
      const overText = event.pointerType !== 'mouse' && event.pointerType !== 'pen' ? true : Boolean(target?.closest(TEXT_ENTRY));
      dot.style.transform = `translate3d(${event.clientX + DOT_OFFSET}px, ${event.clientY + DOT_OFFSET}px, 0)`;
      dot.dataset.visible = overText ? 'false' : 'true';
    };
    // Hidden when the pointer leaves the page, and while the visitor types.
    const onLeave = () => {
      if (ref.current) ref.current.dataset.visible = 'false';
    };
    window.addEventListener('pointermove', onMove, { passive: true });
    window.addEventListener('keydown', onLeave);
    document.documentElement.addEventListener('pointerleave', onLeave);
    return () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('keydown', onLeave);
      document.documentElement.removeEventListener('pointerleave', onLeave);
    };
  }, [enabled]);

  if (!enabled) return null;
  return <div ref={ref} className="cursor-dot" data-cursor-dot="" data-visible="false" aria-hidden="true" />;
}
