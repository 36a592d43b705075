/** The first-day checklist: `GET /api/checklist`, each item done or not, read from the data. */
import { api } from './client';
import type { components } from './openapi.generated';

export type Checklist = components['schemas']['Checklist'];

export function readChecklist(signal?: AbortSignal): Promise<Checklist> {
  return api<Checklist>('/api/checklist', { signal });
}
