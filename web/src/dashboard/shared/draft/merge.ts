/**
 * A three-way merge of two edits of the same draft, for when this tab's save meets a draft saved
 * elsewhere since (409): every change made on one side only is kept; a place changed on both
 * sides to different values is a clash, which takes the side asked for. Objects merge key by key;
 * lists item by item while no side added, removed or moved items (otherwise a changed list is
 * one value).
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface Merged<T> {
  document: T;
  /** The paths changed on both sides (`profile.name`, `projects[1]`). */
  clashes: string[];
}

export function merge3<T>(base: T, mine: T, theirs: T, prefer: 'mine' | 'theirs' = 'theirs'): Merged<T> {
  const clashes: string[] = [];
  const document = merge(base as Json, mine as Json, theirs as Json, '', prefer, clashes) as T;
  return { document, clashes };
}

function merge(base: Json, mine: Json, theirs: Json, path: string, prefer: 'mine' | 'theirs', clashes: string[]): Json {
  if (same(mine, base)) return theirs;
  if (same(theirs, base) || same(mine, theirs)) return mine;
  if (isObject(base) && isObject(mine) && isObject(theirs)) {
    const out: Record<string, Json> = {};
    for (const key of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
      const value = merge(base[key] ?? null, mine[key] ?? null, theirs[key] ?? null, path ? `${path}.${key}` : key, prefer, clashes);
      if (value !== null || key in mine || key in theirs) out[key] = value;
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(mine) && Array.isArray(theirs) && base.length === mine.length && base.length === theirs.length) {
    return base.map((b, i) => merge(b, mine[i]!, theirs[i]!, `${path}[${i}]`, prefer, clashes));
  }
  clashes.push(path);
  return prefer === 'mine' ? mine : theirs;
}
