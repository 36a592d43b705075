import { createContext } from 'react';

/**
 * The case studies published in the page's language, for the project cards' "Read the case study"
 * (a project without one keeps its card as it was): each project's by its id (`/projects/<slug>/`).
 * The server gives them with the page's data.
 */
export const CaseStudyLinks = createContext<Readonly<Record<string, string>>>({});
