import { describe, expect, test } from 'vitest';
import json from './default-document.json';
import schema from './document.schema.json';
import { defaultDocument, type ContentDocument } from './document';

/**
 * A small JSON Schema check, enough for the subset the server generates (objects with
 * `required` and `additionalProperties: false`, arrays, strings, integers, enums, `$ref`):
 * every problem by its path, as the server names it (`projects[2].title`).
 */
type Schema = Record<string, unknown>;
function problems(value: unknown, node: Schema, path: string, out: string[]): string[] {
  const ref = node.$ref as string | undefined;
  if (ref) return problems(value, (schema.$defs as Record<string, Schema>)[ref.replace('#/$defs/', '')]!, path, out);
  const fail = (problem: string) => out.push(`${path || 'body'}: ${problem}`);
  const enumValues = node.enum as unknown[] | undefined;
  if (enumValues && !enumValues.includes(value)) fail(`is not one of ${enumValues.join(', ')}`);
  switch (node.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return (fail('is not an object'), out);
      const properties = (node.properties ?? {}) as Record<string, Schema>;
      for (const key of (node.required ?? []) as string[]) if (!(key in value)) fail(`misses ${key}`);
      for (const [key, field] of Object.entries(value)) {
        const fieldSchema = properties[key];
        if (!fieldSchema) fail(`has the unknown field ${key}`);
        else problems(field, fieldSchema, path ? `${path}.${key}` : key, out);
      }
      break;
    }
    case 'array':
      if (!Array.isArray(value)) return (fail('is not an array'), out);
      if (typeof node.minItems === 'number' && value.length < node.minItems) fail('has too few items');
      if (typeof node.maxItems === 'number' && value.length > node.maxItems) fail('has too many items');
      value.forEach((item, i) => problems(item, node.items as Schema, `${path}[${i}]`, out));
      break;
    case 'string': {
      if (typeof value !== 'string') return (fail('is not a string'), out);
      const length = [...value].length;
      if (typeof node.minLength === 'number' && length < node.minLength) fail('is too short');
      if (typeof node.maxLength === 'number' && length > node.maxLength) fail('is too long');
      if (typeof node.pattern === 'string' && !new RegExp(node.pattern, 'u').test(value)) fail(`does not match ${node.pattern}`);
      break;
    }
    case 'integer':
      if (!Number.isInteger(value)) return (fail('is not a whole number'), out);
      if (typeof node.minimum === 'number' && (value as number) < node.minimum) fail('is too small');
      if (typeof node.maximum === 'number' && (value as number) > node.maximum) fail('is too large');
      break;
  }
  return out;
}

describe('the default content document', () => {
  test('matches the JSON Schema generated from the server types', () => {
    expect(problems(json, schema as Schema, '', [])).toEqual([]);
  });

  test('the check catches what the server refuses, naming the path', () => {
    const broken = structuredClone(json) as unknown as ContentDocument;
    broken.projects[2]!.title = 'x'.repeat(101);
    (broken.projects[0] as unknown as Record<string, unknown>).extra = true;
    broken.projects[1]!.stack = 'mobile' as ContentDocument['projects'][number]['stack'];
    expect(problems(broken, schema as Schema, '', [])).toEqual([
      'projects[0]: has the unknown field extra',
      'projects[1].stack: is not one of frontend, backend, fullstack',
      'projects[2].title: is too long',
    ]);
  });

  test('every media reference names an item in media, and ids are unique', () => {
    const ids = defaultDocument.media.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const references = [
      defaultDocument.profile.photo,
      ...defaultDocument.skills.map((s) => s.logo),
      ...defaultDocument.projects.map((p) => p.image),
      ...[...defaultDocument.experience, ...defaultDocument.education].flatMap((e) => e.awards.map((a) => a.certificate)),
    ];
    for (const reference of references) expect(ids).toContain(reference);
  });
});
