/** The document's images as the editor handles them: bundled files, uploads, the logo set. */
import { defaultDocument, type ContentDocument, type MediaItem } from '../../content/document';

export { addUpload } from '../shared/draft/uploads';

// The bundled images' built addresses, by their path in the document (`images/avatar-320.webp`):
// only the strings, the files are the page's own. The placeholder's case studies' pictures are
// not the document's (and a case study's draft is the owner's uploads): left out.
const BUNDLED = import.meta.glob(['../../content/images/**/*.{webp,svg,png,jpg}', '!../../content/images/case-studies/**'], {
  eager: true,
  query: '?url',
  import: 'default',
}) as Record<string, string>;

/** Where the browser finds a source: uploads are served at their path, bundled files by their built name. */
export function sourceUrl(src: string): string | undefined {
  if (src.startsWith('/')) return src;
  return BUNDLED[`../../content/${src}`];
}

/** The bundled skill logos (simple-icons, drawn by scripts/generate-assets.ts): the ones a skill can pick. */
export const LOGOS: readonly MediaItem[] = defaultDocument.media.filter((m) => m.id.startsWith('logo-'));

export function logoLabel(item: MediaItem): string {
  const file = item.sources[0]?.src.split('/').pop()?.replace(/\.svg$/, '') ?? item.id;
  const skill = defaultDocument.skills.find((s) => s.logo === item.id);
  return skill ? skill.name : file;
}

/** Makes sure the media item `id` exists, taking it from the bundled set when missing. */
export function ensureBundled(document: ContentDocument, id: string): void {
  if (document.media.some((m) => m.id === id)) return;
  const bundled = defaultDocument.media.find((m) => m.id === id);
  if (bundled) document.media.push(structuredClone(bundled));
}

/** The media items no field refers to any more, dropped so the document does not grow with each upload. */
export function pruneUnused(document: ContentDocument): void {
  const used = new Set([
    document.profile.photo,
    ...document.skills.map((s) => s.logo),
    ...document.projects.map((p) => p.image),
    ...[...document.experience, ...document.education].flatMap((e) => e.awards.map((a) => a.certificate)),
  ]);
  document.media = document.media.filter((m) => used.has(m.id));
}
