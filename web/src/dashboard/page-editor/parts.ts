/**
 * The parts of the document the editor moves between, each its own view at
 * `/dashboard?view=page&part=<id>`, and which part a problem's path belongs to (an image's alt
 * text, `media[3].alt`, belongs to the part whose field shows that image).
 */
import type { ContentDocument } from '../../content/document';
import type { Problems } from './validate';

export const PARTS = [
  { id: 'profile', label: 'Profile', anchor: 'home' },
  { id: 'phrases', label: 'Typewriter phrases', anchor: 'home' },
  { id: 'about', label: 'About', anchor: 'about' },
  { id: 'contact', label: 'Contact', anchor: 'contact' },
  { id: 'links', label: 'Social links', anchor: 'contact' },
  { id: 'skills', label: 'Skills', anchor: 'skills' },
  { id: 'projects', label: 'Projects', anchor: 'projects' },
  { id: 'experience', label: 'Experience', anchor: 'experience' },
  { id: 'education', label: 'Education', anchor: 'experience' },
  { id: 'footer', label: 'Footer', anchor: 'contact' },
  { id: 'resume', label: 'Resume', anchor: 'home' },
  { id: 'languages', label: 'Languages', anchor: 'home' },
  { id: 'appearance', label: 'Appearance', anchor: 'home' },
  { id: 'versions', label: 'Versions', anchor: 'home' },
] as const;

export type PartId = (typeof PARTS)[number]['id'];
export const DEFAULT_PART: PartId = 'profile';

export function isPart(id: string | null): id is PartId {
  return PARTS.some((p) => p.id === id);
}

export function partLabel(id: PartId): string {
  return PARTS.find((p) => p.id === id)!.label;
}

export function previewAnchor(id: PartId): string {
  return PARTS.find((p) => p.id === id)!.anchor;
}

const BY_FIELD: [prefix: string, part: PartId][] = [
  ['sections.about', 'about'],
  ['sections.skills', 'skills'],
  ['sections.projects', 'projects'],
  ['sections.experience', 'experience'],
  ['sections.contact', 'contact'],
  ['footer', 'footer'],
  ['profile', 'profile'],
  ['typewriterPhrases', 'phrases'],
  ['about', 'about'],
  ['contact', 'contact'],
  ['social', 'links'],
  ['skills', 'skills'],
  ['projects', 'projects'],
  ['experience', 'experience'],
  ['education', 'education'],
  ['resume', 'resume'],
  ['appearance', 'appearance'],
  ['language', 'languages'],
  ['languages', 'languages'],
  ['strings', 'languages'],
];

function byField(path: string): PartId | undefined {
  return BY_FIELD.find(([prefix]) => path === prefix || /^[.[]/.test(path.slice(prefix.length, prefix.length + 1)) && path.startsWith(prefix))?.[1];
}

/** Where a media item is shown: the first field that points at it. */
function mediaPart(document: ContentDocument, id: string): PartId | undefined {
  if (document.profile.photo === id) return 'profile';
  if (document.projects.some((p) => p.image === id)) return 'projects';
  if (document.skills.some((s) => s.logo === id)) return 'skills';
  if (document.experience.some((e) => e.awards.some((a) => a.certificate === id))) return 'experience';
  if (document.education.some((e) => e.awards.some((a) => a.certificate === id))) return 'education';
  return undefined;
}

/** The part that shows the field at `path`; a problem no part shows goes to the profile. */
export function partOf(path: string, document: ContentDocument): PartId {
  const media = /^media\[(\d+)\]/.exec(path);
  if (media) {
    const item = document.media[Number(media[1])];
    return (item && mediaPart(document, item.id)) ?? DEFAULT_PART;
  }
  return byField(path) ?? DEFAULT_PART;
}

/** How many problems each part has. */
export function countByPart(problems: Problems, document: ContentDocument): Partial<Record<PartId, number>> {
  const counts: Partial<Record<PartId, number>> = {};
  for (const path of Object.keys(problems)) {
    const part = partOf(path, document);
    counts[part] = (counts[part] ?? 0) + 1;
  }
  return counts;
}

/** The problems under a path (`projects[2]`), e.g. to open a collapsed item that has some. */
export function problemsUnder(problems: Problems, path: string): number {
  return Object.keys(problems).filter((p) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[`)).length;
}
