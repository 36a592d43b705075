/** The Projects section's filter: pure helpers over the document's projects. */
import type { Project } from './document.generated';

export const categories = ['All', 'Frontend', 'Backend', 'Fullstack'] as const;
export type Category = (typeof categories)[number];

/** The projects a filter category shows: all for 'All', otherwise those whose stack is the lower-cased category. */
export function projectsFor(category: Category, list: readonly Project[]): Project[] {
  return category === 'All' ? [...list] : list.filter((p) => p.stack === category.toLowerCase());
}
