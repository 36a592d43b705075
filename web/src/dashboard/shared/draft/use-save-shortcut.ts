import { useEffect } from 'react';

/** Ctrl+S / Cmd+S saves the draft at once, as in any editor. */
export function useSaveShortcut(flush: () => Promise<unknown>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void flush();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [flush]);
}
