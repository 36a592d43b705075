export const SCHEMA: string;
export const OUTPUT: string;
export const CASE_STUDY_SCHEMA: string;
export const CASE_STUDY_OUTPUT: string;
export function validatorSource(schemaPath?: string): string;
