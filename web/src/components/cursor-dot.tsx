import { useEffect, useRef } from 'react';
import { useMediaQuery } from './use-media-query';

const TEXT_ENTRY = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

/**
 * A small accent dot that follows a fine pointer (mouse, trackpad). It is rendered once by the
 * root layout, only after mount and only when `(pointer: fine)` matches; it never takes clicks
 * (pointer-events: none) and hides over text fields so the text cursor stays visible.
 * One pointermove listener, removed on unmount (so StrictMode's double effects leave one).
 */
export function CursorDot() {
  const enabled = useMediaQuery('(pointer: fine)');
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!enabled) return;
    const onMove = (event: PointerEvent) => {
      const dot = ref.current;
      if (!dot) return;
      const target = event.target instanceof Element ? event.target : null;
      const overText = event.pointerType !== 'mouse' && event.pointerType !== 'pen' ? true : Boolean(target?.closest(TEXT_ENTRY));
      dot.style.transform = `translate3d(${event.clientX}px, ${event.clientY}px, 0)`;
      dot.dataset.visible = overText ? 'false' : 'true';
    };
    const onLeave = () => {
      if (ref.current) ref.current.dataset.visible = 'false';
    };
    window.addEventListener('pointermove', onMove, { passive: true });
    document.documentElement.addEventListener('pointerleave', onLeave);
    return () => {
      window.removeEventListener('pointermove', onMove);
      document.documentElement.removeEventListener('pointerleave', onLeave);
    };
  }, [enabled]);

  if (!enabled) return null;
  return <div ref={ref} className="cursor-dot" data-cursor-dot="" data-visible="false" aria-hidden="true" />;
}
