/**
 * The document's languages as the editor handles them: which fields are translated (the server's
 * list, `content/src/language.rs`), what a language still lacks, and translations kept on
 * their items when a list is reordered or an item removed (they are keyed by the field's path,
 * `projects[2].title`, so a move rewrites the keys).
 */
import type { ContentDocument, Language, MediaItem } from '../../content/document';

/** The document's other languages; a document stored without any has none. */
export const languagesOf = (document: ContentDocument): Language[] => document.languages ?? [];
export const defaultTag = (document: ContentDocument): string => document.language ?? 'en';

/** A text field a language translates: its path, what it says in the default language, its name in the editor, and the image it describes. */
export interface TextField {
  path: string;
  value: string;
  label: string;
  media?: MediaItem;
}

/** Where an image is used, as its title: "Profile photo", "Image of project “Portfolio”" … */
function imageTitle(document: ContentDocument, id: string, i: number): string {
  if (document.profile.photo === id) return 'Profile photo';
  const project = document.projects.find((p) => p.image === id);
  if (project) return `Image of project “${project.title}”`;
  const award = [...document.experience, ...document.education].flatMap((e) => e.awards).find((a) => a.certificate === id);
  if (award) return `Certificate of “${award.title}”`;
  const skill = document.skills.find((s) => s.logo === id);
  return skill ? `Logo of ${skill.name}` : `Image ${i + 1}`;
}

/** The sections whose heading and lead are the owner's, with their names in the editor. */
export const SECTION_NAMES = [
  ['about', 'About'],
  ['skills', 'Skills'],
  ['projects', 'Projects'],
  ['experience', 'Experience & education'],
  ['contact', 'Contact'],
] as const;

/** The texts that rarely change between languages (dates, names and places), which a language may show as the default language has them. */
export const SAMEABLE = /^(profile\.location\.display|projects\[\d+\]\.title|(experience|education)\[\d+\]\.(place|date))$/;

/** Every translated field of `document`, in the order the editor shows them. */
export function textFields(document: ContentDocument): TextField[] {
  const fields: TextField[] = [];
  const add = (path: string, value: string, label: string, media?: MediaItem) => fields.push({ path, value, label, media });
  add('profile.role', document.profile.role, 'Profile: role');
  add('profile.summary', document.profile.summary, 'Profile: summary');
  add('profile.intro', document.profile.intro, 'Profile: intro');
  add('profile.location.display', document.profile.location.display, 'Profile: location');
  document.typewriterPhrases.forEach((phrase, i) => add(`typewriterPhrases[${i}]`, phrase, `Typewriter phrase ${i + 1}`));
  document.about.paragraphs.forEach((text, i) => add(`about.paragraphs[${i}]`, text, `About: paragraph ${i + 1}`));
  add('contact.responseTime', document.contact.responseTime, 'Contact: when you reply');
  document.projects.forEach((project, i) => {
    add(`projects[${i}].title`, project.title, `Project ${i + 1}: title`);
    add(`projects[${i}].description`, project.description, `Project ${i + 1}: description`);
  });
  for (const [list, name] of [
    ['experience', 'Job'],
    ['education', 'School'],
  ] as const) {
    document[list].forEach((entry, i) => {
      const at = `${list}[${i}]`;
      add(`${at}.title`, entry.title, `${name} ${i + 1}: title`);
      add(`${at}.place`, entry.place, `${name} ${i + 1}: place`);
      add(`${at}.date`, entry.date, `${name} ${i + 1}: dates`);
      add(`${at}.description`, entry.description, `${name} ${i + 1}: description`);
      entry.awards.forEach((award, j) => add(`${at}.awards[${j}].title`, award.title, `${name} ${i + 1}: award ${j + 1}`));
    });
  }
  document.media.forEach((item, i) => {
    if (item.alt) add(`media[${i}].alt`, item.alt, imageTitle(document, item.id, i), item);
  });
  for (const [name, label] of SECTION_NAMES) {
    const section = document.sections[name];
    add(`sections.${name}.title`, section.title, `${label}: heading`);
    add(`sections.${name}.lead`, section.lead, `${label}: lead`);
  }
  add('footer.title', document.footer.title, 'Footer: title');
  add('footer.line', document.footer.line, 'Footer: line');
  return fields;
}

/** The fields a language has no translation for (those empty in the default language, or marked the same, need none). */
export function missingTexts(document: ContentDocument, language: Language): TextField[] {
  return textFields(document).filter(
    (field) => field.value.trim() !== '' && !language.same?.includes(field.path) && !language.texts[field.path]?.trim(),
  );
}

/** What holds translations: a page's language, a case study's translation. */
export interface Translated {
  texts: { [path: string]: string | undefined };
  same?: string[];
}

/** Marks the texts at `paths` as the same as the default language's (their translations dropped), or unmarks them. */
export function markSame(language: Translated, paths: string[], same: boolean) {
  const marked = new Set(language.same);
  for (const path of paths) {
    if (same) {
      marked.add(path);
      delete language.texts[path];
    } else marked.delete(path);
  }
  // Sorted as the server keeps them, and absent when empty, as it writes them.
  if (marked.size) language.same = [...marked].sort();
  else delete language.same;
}

/** The path of every item of the document's lists of objects, by the item itself. */
function objectPaths(document: ContentDocument): Map<object, string> {
  const paths = new Map<object, string>();
  const walk = (list: readonly object[], at: string) => list.forEach((item, i) => paths.set(item, `${at}[${i}]`));
  walk(document.projects, 'projects');
  walk(document.media, 'media');
  for (const list of ['experience', 'education'] as const) {
    walk(document[list], list);
    document[list].forEach((entry, i) => walk(entry.awards, `${list}[${i}].awards`));
  }
  return paths;
}

const STRING_LISTS = [
  ['typewriterPhrases', (d: ContentDocument) => d.typewriterPhrases],
  ['about.paragraphs', (d: ContentDocument) => d.about.paragraphs],
] as const;

/**
 * Where each string of a list went: the same index while the list kept its length (an edit in
 * place), else the first unclaimed equal string of the old list (a move or a removal).
 */
function stringMoves(before: readonly string[], after: readonly string[], at: string, moves: Map<string, string | null>) {
  if (before.length === after.length) return;
  const claimed = new Set<number>();
  const found = new Map<number, number>();
  after.forEach((text, j) => {
    const i = before.findIndex((old, k) => old === text && !claimed.has(k));
    if (i >= 0) {
      claimed.add(i);
      found.set(i, j);
    }
  });
  before.forEach((_, i) => moves.set(`${at}[${i}]`, found.has(i) ? `${at}[${found.get(i)}]` : null));
}

/** The item's path (`experience[1].awards[0]`, `about.paragraphs[2]`) and the field within it of a translation's key. */
function split(key: string): [item: string, rest: string] {
  const end = key.lastIndexOf(']');
  return end < 0 ? [key, ''] : [key.slice(0, end + 1), key.slice(end + 1)];
}

/**
 * Makes an edit of `draft` (which may move and remove list items) keep each translation on its
 * item: call before the edit, and call what it returns after it.
 */
export function followItems(draft: ContentDocument): () => void {
  const languages = languagesOf(draft);
  if (languages.length === 0) return () => {};
  const before = objectPaths(draft);
  const strings = STRING_LISTS.map(([, of]) => [...of(draft)]);
  return () => {
    const moves = new Map<string, string | null>();
    const after = objectPaths(draft);
    for (const [item, path] of before) moves.set(path, after.get(item) ?? null);
    STRING_LISTS.forEach(([at, of], n) => stringMoves(strings[n]!, of(draft), at, moves));
    moveKeys(languages, moves, new Set(textFields(draft).map((field) => field.path)));
  };
}

/**
 * Moves each translation (and each mark) of `languages` to its item's new path (`moves`, by the
 * item's old path; null when the item is gone), and drops those whose field is not among `fields`.
 */
export function moveKeys(languages: Translated[], moves: Map<string, string | null>, fields: Set<string>) {
  const moved = (key: string) => {
    const [item, rest] = split(key);
    const to = moves.has(item) ? moves.get(item) : item;
    return to && fields.has(`${to}${rest}`) ? `${to}${rest}` : null;
  };
  for (const language of languages) {
    const texts: Record<string, string | undefined> = {};
    for (const [key, text] of Object.entries(language.texts)) {
      const to = moved(key);
      if (to) texts[to] = text;
    }
    language.texts = texts;
    const same = language.same?.flatMap((key) => moved(key) ?? []) ?? [];
    delete language.same;
    markSame(language, same, true);
  }
}
