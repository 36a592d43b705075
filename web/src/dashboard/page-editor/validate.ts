/**
 * The document checked as the server checks it: the JSON Schema (compiled by Ajv at build time,
 * see scripts/document-validator.mjs), then the rules the schema cannot say (links are http,
 * https or mailto; ids unique; every image reference names an item in `media`). Problems are
 * keyed by the server's paths (`projects[2].title`) in the server's words, so a 422 from the
 * server and a check here land on the same field.
 */
import type { ErrorObject } from 'ajv';
import type { ContentDocument } from '../../content/document';
import type { Problems } from '../shared/draft/draft-source';
import { validate } from './validate-document.generated.js';

export type { Problems } from '../shared/draft/draft-source';

/** `/projects/2/title` as the server names it: `projects[2].title`. */
export function pathOf(pointer: string): string {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${part}` : part;
  }
  return path || 'body';
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}

function message(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'pattern':
      // The pattern the server gives every text without one of its own (NO_CONTROL_PATTERN).
      return String(p.pattern).startsWith('^[^\\u0000')
        ? 'must not contain control characters'
        : `must match ${String(p.pattern)}`;
    case 'format':
      return p.format === 'email' ? 'must be an e-mail address' : 'must be an http, https or mailto URL';
    case 'minItems':
      return `must have at least ${String(p.limit)} item${plural(Number(p.limit))}`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} item${plural(Number(p.limit))}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    default:
      return error.message ?? 'is not valid';
  }
}

/** An absolute http or https URL with a host, or a mailto: address (as the server's `is_link`). */
export function isLink(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.hostname !== '';
  return url.protocol === 'mailto:' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(decodeURIComponent(url.pathname));
}

/** A generated validator (scripts/document-validator.mjs). */
export interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** The schema's problems of `data`, each added by its path in the server's words. */
export function schemaProblems(check: Validator, data: unknown, add: (path: string, problem: string) => void): void {
  if (check(data)) return;
  for (const error of check.errors ?? []) {
    if (error.keyword === 'required') add(pathOf(`${error.instancePath}/${String(error.params.missingProperty)}`), 'is required');
    else if (error.keyword === 'additionalProperties') add(pathOf(error.instancePath), `has the unknown field ${String(error.params.additionalProperty)}`);
    else add(pathOf(error.instancePath), message(error));
  }
}

/** Every problem of the document, by path; empty when the server would take it. */
export function problemsOf(document: ContentDocument): Problems {
  const problems: Problems = {};
  const add = (path: string, problem: string) => {
    if (!(path in problems)) problems[path] = problem;
  };
  schemaProblems(validate, document, add);
  const links: [string, string][] = [
    ...document.social.map((s, i): [string, string] => [`social[${i}].url`, s.url]),
    ...document.projects.flatMap((p, i): [string, string][] => [
      [`projects[${i}].codeUrl`, p.codeUrl],
      [`projects[${i}].demoUrl`, p.demoUrl],
    ]),
  ];
  for (const [path, url] of links) if (typeof url === 'string' && !isLink(url)) add(path, 'must be an http, https or mailto URL');

  const unique = (list: string, ids: string[]) => {
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) add(`${list}[${i}].id`, `"${id}" is already the id of another item`);
      seen.add(id);
    });
    return seen;
  };
  const media = unique('media', document.media.map((m) => m.id));
  unique('projects', document.projects.map((p) => p.id));
  unique('social', document.social.map((s) => s.id));
  const reference = (path: string, id: string) => {
    if (!media.has(id)) add(path, `"${id}" is not the id of an item in media`);
  };
  reference('profile.photo', document.profile.photo);
  document.skills.forEach((s, i) => reference(`skills[${i}].logo`, s.logo));
  document.projects.forEach((p, i) => reference(`projects[${i}].image`, p.image));
  for (const list of ['experience', 'education'] as const) {
    document[list].forEach((entry, i) =>
      entry.awards.forEach((a, j) => reference(`${list}[${i}].awards[${j}].certificate`, a.certificate)),
    );
  }
  return problems;
}
