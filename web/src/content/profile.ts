/**
 * Who the site is about, read from the content document (`default-document.json`). Plain data:
 * Node scripts and the browser tests import it too.
 */
import { defaultDocument as doc } from './document';

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

const social = (id: string): string => doc.social.find((link) => link.id === id)?.url ?? '';

export const profile: Profile = {
  name: doc.profile.name,
  role: doc.profile.role,
  typewriterPhrases: doc.typewriterPhrases,
  summary: doc.profile.summary,
  email: doc.contact.email,
  phone: { dial: doc.contact.phone.dial, display: doc.contact.phone.display },
  location: { display: doc.profile.location.display, mapsQuery: doc.profile.location.mapsQuery },
  links: { github: social('github'), linkedin: social('linkedin'), twitter: social('twitter') },
  resume: doc.resume.path,
};
