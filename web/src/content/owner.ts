/**
 * The default document's owner in the shape the Node scripts and browser tests read (name,
 * links by site, resume path, ...): derived, never written by hand, so a changed document keeps
 * them in step.
 */
import json from './default-document.json' with { type: 'json' };
import type { ContentDocument } from './document.generated';

const document = json as ContentDocument;

export const profile = {
  name: document.profile.name,
  role: document.profile.role,
  summary: document.profile.summary,
  typewriterPhrases: document.typewriterPhrases,
  email: document.contact.email,
  phone: document.contact.phone,
  location: document.profile.location,
  links: Object.fromEntries(document.social.map((link) => [link.id, link.url])) as Record<string, string>,
  resume: document.resume.path,
};

/** Work and education with their awards' titles. */
const entries = (list: ContentDocument['experience']) =>
  list.map((entry) => ({ ...entry, awards: entry.awards.map((award) => award.title) }));
export const work = entries(document.experience);
export const education = entries(document.education);
