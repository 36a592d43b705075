import sprite from './icons.svg';
import type { IconName } from './icon-names';

export type { IconName };

/**
 * A decorative UI icon from the SVG sprite (lucide's artwork). The sprite is one small cached
 * file, so icons add no path data to the page's JavaScript. Always aria-hidden: pair it with text
 * or give its control an accessible name.
 */
export function Icon({ name, className = 'size-5' }: { name: IconName; className?: string }) {
  return (
    <svg aria-hidden="true" focusable="false" width="24" height="24" className={`shrink-0 ${className}`}>
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}
