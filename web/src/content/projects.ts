/** The projects shown in the Projects section, from the content document. Links are placeholders: point them at your repositories and demos. */
import { defaultDocument as doc } from './document';
import { image, type ResponsiveImage } from './media';

export type Stack = 'frontend' | 'backend' | 'fullstack';

export interface Project {
  /** A stable id (lower case, digits and dashes): the insights count clicks on its links by it, so keep it when the title changes. */
  id: string;
  title: string;
  image: ResponsiveImage;
  description: string;
  /** Code repository URL. */
  gitlink: string;
  /** Live demo URL. */
  liveUrl: string;
  technologies: readonly string[];
  stack: Stack;
}

export const projects: readonly Project[] = doc.projects.map((p) => ({
  id: p.id,
  title: p.title,
  image: image(p.image),
  description: p.description,
  gitlink: p.codeUrl,
  liveUrl: p.demoUrl,
  technologies: p.technologies,
  stack: p.stack,
}));

export const categories = ['All', 'Frontend', 'Backend', 'Fullstack'] as const;
export type Category = (typeof categories)[number];

/** The projects a filter category shows: all for 'All', otherwise those whose stack is the lower-cased category. */
export function projectsFor(category: Category, list: readonly Project[] = projects): Project[] {
  return category === 'All' ? [...list] : list.filter((p) => p.stack === category.toLowerCase());
}
