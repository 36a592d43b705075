// Types of the generated validator beside it (scripts/document-validator.mjs).
import type { ErrorObject } from 'ajv';

export interface DocumentValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}
export const validate: DocumentValidator;
export default validate;
