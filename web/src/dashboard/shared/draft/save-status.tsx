/** Whether the draft is saved: saved, saving, waiting to save, not saved (and why), merged. */
import { AlertTriangle, Check, LoaderCircle } from 'lucide-react';
import type { DraftStateOf } from './use-draft-of';

export function SaveStatus<T>({ draft }: { draft: DraftStateOf<T> }) {
  const problemCount = Object.keys(draft.problems).length;
  const [tone, text] = draft.conflict
    ? (['warn', 'Not saved: changed elsewhere too'] as const)
    : draft.saving
      ? (['busy', 'Saving…'] as const)
      : draft.saveError
        ? (['warn', `Not saved (${draft.saveError}). Trying again in a moment.`] as const)
        : problemCount > 0
          ? (['warn', `Not saved: ${problemCount === 1 ? 'one field needs' : `${problemCount} fields need`} attention`] as const)
          : draft.recovery
            ? (['warn', 'Not saved: choose what to do with your earlier changes'] as const)
            : draft.dirty
              ? (['busy', 'Unsaved changes'] as const)
              : draft.merged
                ? (['ok', 'All changes saved, with the changes made elsewhere merged in'] as const)
                : (['ok', 'All changes saved'] as const);
  const Icon = tone === 'ok' ? Check : tone === 'busy' ? LoaderCircle : AlertTriangle;
  return (
    <p role="status" className={`flex items-center gap-1.5 text-sm ${tone === 'warn' ? 'text-amber-200' : 'text-gray-300'}`}>
      <Icon aria-hidden="true" className={`size-4 ${tone === 'busy' ? 'motion-safe:animate-spin' : ''}`} />
      {text}
    </p>
  );
}
