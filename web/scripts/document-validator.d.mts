export const SCHEMA: string;
export const OUTPUT: string;
export function validatorSource(schemaPath?: string): string;
