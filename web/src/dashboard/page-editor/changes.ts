/**
 * What the draft changes on the live page: every field whose value differs from the published
 * document's, each named as the editor shows it ("Projects: 2nd project's title"). Generic over
 * the document: a field the editor gains is compared (and named from its key) with no change here.
 * A list's items added or removed count as one change each; languages are matched by their tag;
 * images by their id, of which only the description is the owner's field (an upload changes the
 * field that shows it).
 */
import type { ContentDocument } from '../../content/document';
import { PARTS, partLabel, partOf, type PartId } from './parts';
import { textFields } from './translations';
import { languageName } from '../shared/draft/language-name';

export { languageName } from '../shared/draft/language-name';

type Json = null | undefined | boolean | number | string | Json[] | { [key: string]: Json };
type Segment = string | number;
/** A fixed text's readable name by its key (`fixed-text-names.ts`, a chunk of its own: given once loaded). */
type Namer = (key: string) => string;

export interface Change {
  /** The field's path (`projects[1].title`), in the draft's order (in the live one's, when removed). */
  path: string;
  kind: 'changed' | 'added' | 'removed';
  part: PartId;
  /** As the owner reads it: `Projects: 2nd project's title`. */
  name: string;
}

/** The forms' labels, by path with each index as `[]`; a list's entry names its items. */
const LABELS: Record<string, string> = {
  'profile.location.display': 'Location',
  'profile.location.mapsQuery': 'Location for the map link',
  'typewriterPhrases[]': 'phrase',
  'about.paragraphs[]': 'paragraph',
  'contact.phone.display': 'Phone, as shown',
  'contact.phone.dial': 'Phone, as dialled',
  'contact.responseTime': 'When you reply',
  'social[]': 'link',
  'social[].label': 'site name',
  'social[].url': 'address',
  'skills[]': 'skill',
  'projects[]': 'project',
  'projects[].image': 'screenshot',
  'projects[].codeUrl': 'code address',
  'projects[].demoUrl': 'live demo address',
  'experience[]': 'job',
  'experience[].title': 'job title',
  'experience[].place': 'company',
  'education[]': 'school',
  'education[].title': 'degree or course',
  'education[].place': 'school',
  'experience[].awards[]': 'award',
  'education[].awards[]': 'award',
  date: 'dates',
  'resume.path': 'PDF',
  'appearance.scheme': 'Scheme visitors see first',
  'appearance.accent': 'Accent colour',
  'appearance.sections': 'Sections shown',
  'appearance.available': '“Available for new projects” badge',
  language: 'Default language',
  'footer.since': 'First year of the copyright',
  ...Object.fromEntries(
    ['about', 'skills', 'projects', 'experience', 'contact'].flatMap((name) => [
      [`sections.${name}.title`, 'Heading'],
      [`sections.${name}.lead`, 'Lead'],
    ]),
  ),
};

/**
 * A document as the server would read it (with the defaults a document saved by an older release
 * may lack), its languages by their tag, and of its images those the other document has too, by
 * their id: only an image's description is the owner's field (an upload changes the field that
 * shows the image).
 */
function normalised(document: ContentDocument, other: ContentDocument): Json {
  const ids = new Set(other.media.map((item) => item.id));
  return {
    ...document,
    language: document.language ?? 'en',
    media: Object.fromEntries(document.media.filter((item) => ids.has(item.id)).map((item) => [item.id, item.alt])),
    languages: Object.fromEntries((document.languages ?? []).map((language) => [language.tag, language])),
  } as unknown as Json;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isObject = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Missing, null, `""`, `[]` and `{}` say the same: nothing. */
const empty = (value: Json) => value == null || value === '' || (typeof value === 'object' && Object.keys(value).length === 0);

type Found = [Segment[], Change['kind']];

function walk(live: Json, draft: Json, at: Segment[], out: Found[]) {
  if (same(live, draft) || (empty(live) && empty(draft))) return;
  // A language only one side has is one change; any other group of fields is compared field by field.
  if (at[0] !== 'languages' || at.length !== 2) {
    if (live === undefined && isObject(draft)) live = {};
    if (draft === undefined && isObject(live)) draft = {};
  }
  if (isObject(live) && isObject(draft)) {
    for (const key of new Set([...Object.keys(live), ...Object.keys(draft)])) walk(live[key], draft[key], [...at, key], out);
  } else if (Array.isArray(live) && Array.isArray(draft) && at.at(-1) !== 'technologies') {
    aligned(live, draft, at, out);
  } else out.push([at, isObject(draft) && live === undefined ? 'added' : isObject(live) && draft === undefined ? 'removed' : 'changed']);
}

/** Item by item, after the items equal at both ends: an item added or removed in between is one change. */
function aligned(live: Json[], draft: Json[], at: Segment[], out: Found[]) {
  let start = 0;
  while (start < live.length && start < draft.length && same(live[start], draft[start])) start++;
  let end = 0;
  while (end < live.length - start && end < draft.length - start && same(live[live.length - 1 - end], draft[draft.length - 1 - end])) end++;
  const shared = Math.min(live.length, draft.length) - start - end;
  for (let i = start; i < start + shared; i++) walk(live[i], draft[i], [...at, i], out);
  for (let i = start + shared; i < draft.length - end; i++) out.push([[...at, i], 'added']);
  for (let i = start + shared; i < live.length - end; i++) out.push([[...at, i], 'removed']);
}

function pathOf(at: Segment[], document: ContentDocument): string {
  if (at[0] === 'media') return `media[${document.media.findIndex((item) => item.id === at[1])}].alt`;
  return at.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** `mapsQuery` as `maps query`. */
const humanised = (key: string) => key.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

/** The field at `at` as the owner reads it, within its part: `2nd project's title`, `German: Project 1: title`. */
function fieldName(at: Segment[], document: ContentDocument, fixedTextName: Namer): string {
  if (at[0] === 'languages' && at[1]) {
    const [, tag, within, key = ''] = at.map(String);
    const what =
      within === 'texts'
        ? (textFields(document).find((field) => field.path === key)?.label ?? key)
        : within === 'strings'
          ? `fixed text “${fixedTextName(key)}”`
          : within;
    return what ? `${languageName(tag!)}: ${what}` : languageName(tag!);
  }
  if (at[0] === 'media') return 'Image description';
  if (at[0] === 'strings') return `Fixed text “${fixedTextName(String(at[1]))}”`;
  const items: string[] = [];
  let pattern = '';
  let parent = '';
  let keys: string[] = [];
  for (const segment of at) {
    parent = pattern;
    if (typeof segment === 'number') {
      pattern = `${pattern}[]`;
      items.push(`${ordinal(segment + 1)} ${LABELS[pattern] ?? 'item'}`);
      keys = [];
    } else {
      pattern = pattern ? `${pattern}.${segment}` : segment;
      keys.push(humanised(segment));
    }
  }
  const last = at.at(-1);
  if (typeof last === 'number') return items.join("'s ");
  // A field the table does not name is named by its keys within its item (or its part).
  const label =
    LABELS[pattern] ??
    LABELS[String(last)] ??
    (LABELS[parent] && !parent.endsWith(']') ? `${LABELS[parent]} (${keys.at(-1)})` : (items.length || keys.length === 1 ? keys : keys.slice(1)).join(' '));
  const name = items.length ? `${items.join("'s ")}'s ${label.toLowerCase()}` : label;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * The draft's changes from the live document, part by part in the editor's order (within a part,
 * in the order of the document's keys, which the server may have sorted).
 */
export function draftChanges(live: ContentDocument, draft: ContentDocument, fixedTextName: Namer = (key) => key): Change[] {
  const found: Found[] = [];
  walk(normalised(live, draft), normalised(draft, live), [], found);
  const order = (part: PartId) => PARTS.findIndex((p) => p.id === part);
  return found
    .map(([at, kind]): Change => {
      const path = pathOf(at, draft);
      const part = partOf(path, kind === 'removed' ? live : draft);
      const name = fieldName(at, draft, fixedTextName);
      return { path, kind, part, name: `${partLabel(part)}: ${name}${kind === 'changed' ? '' : ` (${kind})`}` };
    })
    .sort((a, b) => order(a.part) - order(b.part));
}
