// Types of the generated validator beside it (scripts/document-validator.mjs).
import type { ErrorObject } from 'ajv';

export interface CaseStudyValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}
export const validate: CaseStudyValidator;
export default validate;
