/**
 * A case study checked as the server checks it (`check_case_study`): its JSON Schema (compiled by
 * Ajv at build time, see scripts/document-validator.mjs), then what the schema cannot say: links
 * are http, https or mailto, a figure's value is a number, media ids are unique and every picture
 * names an item of `media`, each translated text within its field's bounds. Its Markdown (raw HTML, a `javascript:` link …) and whether its project
 * is the page's are the server's to check: a 422 names the field, shown at it like these.
 */
import type { CaseStudy } from '../../content/document';
import { caseTextFields, translatedStudy } from './case-study-texts';
import { validate } from './validate-case-study.generated.js';
import { isLink, schemaProblems, type Problems } from './validate';

export function caseStudyProblems(study: CaseStudy): Problems {
  const problems: Problems = {};
  const add = (path: string, problem: string) => {
    if (!(path in problems)) problems[path] = problem;
  };
  // A figure's number typed as something else is kept as NaN (JSON's null), which is no number.
  study.figures.forEach((figure, i) => {
    if (typeof figure.value !== 'number' || !Number.isFinite(figure.value)) add(`figures[${i}].value`, 'must be a number, such as 38 or 1.5');
  });
  schemaProblems(validate, study, add);
  study.links.forEach((link, i) => {
    if (typeof link.url === 'string' && !isLink(link.url)) add(`links[${i}].url`, 'must be an http, https or mailto URL');
  });
  const media = new Set<string>();
  study.media.forEach((item, i) => {
    if (media.has(item.id)) add(`media[${i}].id`, `"${item.id}" is already the id of another item`);
    media.add(item.id);
  });
  study.gallery.forEach((picture, i) => {
    if (!media.has(picture.image)) add(`gallery[${i}].image`, `"${picture.image}" is not the id of an item in media`);
  });
  // Each translated text within its field's bounds, as the language shows it (`translations[0].texts.summary`).
  const texts = new Set(caseTextFields(study).map((field) => field.path));
  (study.translations ?? []).forEach((translation, i) => {
    const own = (path: string) => texts.has(path) && !translation.same?.includes(path) && !!translation.texts[path]?.trim();
    schemaProblems(validate, translatedStudy(study, translation.tag), (path, problem) => {
      if (own(path)) add(`translations[${i}].texts.${path}`, problem);
    });
  });
  return problems;
}

/** The media items no picture refers to any more, dropped so the case study does not grow with each upload. */
export function pruneCaseStudyMedia(study: CaseStudy): void {
  const used = new Set(study.gallery.map((picture) => picture.image));
  study.media = study.media.filter((item) => used.has(item.id));
}
