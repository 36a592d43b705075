export const DEV_ONLY_TEXT: readonly string[];
export function devOnlyTextIn(text: string): string[];
