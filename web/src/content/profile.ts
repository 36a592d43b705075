/**
 * Who the site is about. Whoever deploys the site replaces these placeholders (and the
 * images beside this file); nothing outside `web/src/content/` needs to change.
 */
export interface Profile {
  /** Full name, shown in the hero, the about section, the footer and link previews. */
  name: string;
  /** Job title for the about section, link previews and search engines. */
  role: string;
  /** The phrases the hero's typewriter cycles through. */
  typewriterPhrases: readonly string[];
  /** One or two sentences for the meta description and link previews. */
  summary: string;
  email: string;
  /** As dialled, e.g. +919000000000, and as shown. */
  phone: { dial: string; display: string };
  /** As shown, and what a maps search looks for. */
  location: { display: string; mapsQuery: string };
  links: { github: string; linkedin: string; twitter: string };
  /** Path of the resume PDF served by the site. */
  resume: string;
}

export const profile: Profile = {
  name: 'Alex Morgan',
  role: 'Full Stack Developer',
  typewriterPhrases: ['Front End Developer', 'Web Developer', 'React Enthusiast'],
  summary:
    'Full-stack web developer building fast, accessible sites and apps with React, Node.js, Express, MongoDB, Tailwind CSS and JavaScript.',
  email: 'alex.morgan@example.com',
  phone: { dial: '+919000000000', display: '+91 90000 00000' },
  location: { display: 'AP, India', mapsQuery: 'Andhra Pradesh, India' },
  links: {
    github: 'https://github.com/your-handle',
    linkedin: 'https://www.linkedin.com/in/your-handle',
    twitter: 'https://x.com/your-handle',
  },
  resume: '/resume.pdf',
};
