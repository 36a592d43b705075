/** See rules-matching.mjs. */
export function rulesMatching(css: string, pattern: RegExp, others?: boolean): string;
