/**
 * A case study's texts as its translations see them, the same list as the server's
 * (`texts` in content/src/case_study.rs): which texts a language translates, what it still
 * lacks, the case study as a language shows it, and translations kept on their items when a list
 * is reordered or an item removed.
 */
import type { CaseStudy, CaseStudyTranslation, MediaItem } from '../../content/document';
import { moveKeys, type TextField } from './translations';

/** The texts that are often the same in every language (a figure's unit, a link's label such as “GitHub”). */
export const CASE_SAMEABLE = /^(figures\[\d+\]\.unit|links\[\d+\]\.label)$/;

/** Every text of the case study a language translates, in the order the editor shows them (empty ones too). */
export function caseTextFields(study: CaseStudy): TextField[] {
  const fields: TextField[] = [];
  const add = (path: string, value: string, label: string, media?: MediaItem) => fields.push({ path, value, label, media });
  add('summary', study.summary, 'Summary');
  add('problem', study.problem, 'The problem');
  add('role', study.role, 'Your role');
  add('team', study.team, 'The team');
  add('constraints', study.constraints, 'Constraints');
  add('outcome', study.outcome, 'The outcome');
  study.decisions.forEach((decision, i) => {
    add(`decisions[${i}].title`, decision.title, `Decision ${i + 1}`);
    add(`decisions[${i}].why`, decision.why, `Decision ${i + 1}: why`);
  });
  study.figures.forEach((figure, i) => {
    add(`figures[${i}].unit`, figure.unit, `Figure ${i + 1}: unit`);
    add(`figures[${i}].label`, figure.label, `Figure ${i + 1}: what it measures`);
  });
  study.gallery.forEach((picture, i) => add(`gallery[${i}].caption`, picture.caption, `Picture ${i + 1}: caption`));
  study.links.forEach((link, i) => add(`links[${i}].label`, link.label, `Link ${i + 1}: label`));
  study.media.forEach((item, i) => {
    const picture = study.gallery.findIndex((p) => p.image === item.id);
    add(`media[${i}].alt`, item.alt, picture >= 0 ? `Picture ${picture + 1}: description` : `Image ${i + 1}: description`, item);
  });
  return fields;
}

/** The case study's translation into `tag`, if it has one. */
export const translationOf = (study: CaseStudy, tag: string): CaseStudyTranslation | undefined =>
  study.translations?.find((t) => t.tag.toLowerCase() === tag.toLowerCase());

/** The texts `tag` still lacks before its pages show the case study (an empty text, or one kept the same, needs none). */
export function missingCaseTexts(study: CaseStudy, tag: string): TextField[] {
  const translation = translationOf(study, tag);
  return caseTextFields(study).filter(
    (field) => field.value.trim() !== '' && !translation?.same?.includes(field.path) && !translation?.texts[field.path]?.trim(),
  );
}

/** The case study as `tag` shows it: each text translated where the translation has it (as the server's `translated`). */
export function translatedStudy(study: CaseStudy, tag: string): CaseStudy {
  const shown = structuredClone(study);
  delete shown.translations;
  const translation = translationOf(study, tag);
  if (!translation) return shown;
  const words = (path: string): string | undefined => {
    const text = translation.texts[path];
    return translation.same?.includes(path) || !text?.trim() ? undefined : text;
  };
  for (const key of ['summary', 'problem', 'role', 'team', 'constraints', 'outcome'] as const) shown[key] = words(key) ?? shown[key];
  shown.decisions.forEach((d, i) => {
    d.title = words(`decisions[${i}].title`) ?? d.title;
    d.why = words(`decisions[${i}].why`) ?? d.why;
  });
  shown.figures.forEach((f, i) => {
    f.unit = words(`figures[${i}].unit`) ?? f.unit;
    f.label = words(`figures[${i}].label`) ?? f.label;
  });
  shown.gallery.forEach((p, i) => void (p.caption = words(`gallery[${i}].caption`) ?? p.caption));
  shown.links.forEach((l, i) => void (l.label = words(`links[${i}].label`) ?? l.label));
  shown.media.forEach((m, i) => void (m.alt = words(`media[${i}].alt`) ?? m.alt));
  return shown;
}

/** The path of every item of the case study's lists, by the item itself. */
function itemPaths(study: CaseStudy): Map<object, string> {
  const paths = new Map<object, string>();
  for (const list of ['decisions', 'figures', 'gallery', 'links', 'media'] as const) study[list].forEach((item: object, i) => paths.set(item, `${list}[${i}]`));
  return paths;
}

/**
 * Makes an edit of `draft` (which may move and remove items) keep each translation on its item:
 * call before the edit, and call what it returns after it.
 */
export function followCaseItems(draft: CaseStudy): () => void {
  if (!draft.translations?.length) return () => {};
  const before = itemPaths(draft);
  return () => {
    const after = itemPaths(draft);
    const moves = new Map<string, string | null>();
    for (const [item, path] of before) moves.set(path, after.get(item) ?? null);
    moveKeys(draft.translations ?? [], moves, new Set(caseTextFields(draft).map((field) => field.path)));
  };
}
