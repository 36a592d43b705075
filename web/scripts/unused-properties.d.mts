/** See unused-properties.mjs. */
export function withoutUnusedProperties(css: string, html: string): { css: string; removed: string[] };
