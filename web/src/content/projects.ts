/** The projects shown in the Projects section. Links are placeholders: point them at your repositories and demos. */
import portfolio400 from './images/projects/portfolio-400.webp';
import portfolio800 from './images/projects/portfolio-800.webp';
import food400 from './images/projects/food-recipes-400.webp';
import food800 from './images/projects/food-recipes-800.webp';
import elegant400 from './images/projects/elegant-context-400.webp';
import elegant800 from './images/projects/elegant-context-800.webp';
import tuktuk400 from './images/projects/tuk-tuk-cambodia-400.webp';
import tuktuk800 from './images/projects/tuk-tuk-cambodia-800.webp';
import type { ResponsiveImage } from './media';

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

const screenshot = (small: string, large: string, alt: string): ResponsiveImage => ({
  src: small,
  srcSet: `${small} 400w, ${large} 800w`,
  width: 800,
  height: 500,
  alt,
});

export const projects: readonly Project[] = [
  {
    id: 'portfolio',
    title: 'Portfolio',
    image: screenshot(portfolio400, portfolio800, 'Screenshot of the portfolio home page'),
    description:
      'This site: a fast, accessible one-page portfolio with a contact form whose messages land in a private inbox.',
    gitlink: 'https://github.com/your-handle/portfolio',
    liveUrl: 'https://portfolio.example.dev',
    technologies: ['React', 'Tailwind CSS', 'Node.js'],
    stack: 'fullstack',
  },
  {
    id: 'food-recipes',
    title: 'Food Recipes',
    image: screenshot(food400, food800, 'Screenshot of the Food Recipes API documentation'),
    description:
      'A REST API for recipes with search, categories and pagination, documented endpoint by endpoint.',
    gitlink: 'https://github.com/your-handle/food-recipes',
    liveUrl: 'https://food-recipes.example.dev',
    technologies: ['Node.js', 'Express', 'MongoDB'],
    stack: 'backend',
  },
  {
    id: 'elegant-context',
    title: 'Elegant Context',
    image: screenshot(elegant400, elegant800, 'Screenshot of the Elegant Context studio landing page'),
    description:
      'A calm, responsive landing page for an interior design studio, built for easy reading on any screen.',
    gitlink: 'https://github.com/your-handle/elegant-context',
    liveUrl: 'https://elegant-context.example.dev',
    technologies: ['HTML5', 'CSS3', 'JavaScript'],
    stack: 'frontend',
  },
  {
    id: 'tuk-tuk-cambodia',
    title: 'Tuk-Tuk Cambodia',
    image: screenshot(tuktuk400, tuktuk800, 'Screenshot of the Tuk-Tuk Cambodia booking page'),
    description:
      'A booking site for tuk-tuk rides and city tours in Phnom Penh, with fixed fares and airport pick-up.',
    gitlink: 'https://github.com/your-handle/tuk-tuk-cambodia',
    liveUrl: 'https://tuk-tuk-cambodia.example.dev',
    technologies: ['React', 'Tailwind CSS', 'Vite'],
    stack: 'frontend',
  },
];

export const categories = ['All', 'Frontend', 'Backend', 'Fullstack'] as const;
export type Category = (typeof categories)[number];

/** The projects a filter category shows: all for 'All', otherwise those whose stack is the lower-cased category. */
export function projectsFor(category: Category, list: readonly Project[] = projects): Project[] {
  return category === 'All' ? [...list] : list.filter((p) => p.stack === category.toLowerCase());
}
