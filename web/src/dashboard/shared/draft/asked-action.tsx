/**
 * An action of a draft's bar that is asked first (Publish, Schedule, Unpublish): its button, its
 * question in a dialog, and what it did said below the bar, a status or the failure in the owner's
 * words. Its parts are the bar's: the messages take a row of their own below it.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { sessionEnded } from '../session';
import { ConfirmDialog } from './confirm-dialog';

/** A failure said in the owner's words (`explain`), else the error's own; nothing once the session ended (the sign-in says so). */
export function useFailure(explain?: (cause: unknown) => string | undefined) {
  const [error, setError] = useState<string | null>(null);
  const fail = useCallback(
    (cause: unknown) => {
      if (!sessionEnded(cause)) setError(explain?.(cause) ?? (cause instanceof Error ? cause.message : String(cause)));
    },
    [explain],
  );
  return { error, setError, fail };
}

/** An action's state: whether it runs, and what it said. */
export function useAction(explain?: (cause: unknown) => string | undefined) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const { error, setError, fail } = useFailure(explain);
  /** Runs `run`, which answers what to say once done (or sets an error itself and answers null). */
  async function act(run: () => Promise<string | null>) {
    setBusy(true);
    setStatus(null);
    setError(null);
    try {
      setStatus(await run());
    } catch (cause) {
      fail(cause);
    } finally {
      setBusy(false);
    }
  }
  return { busy, status, setStatus, error, setError, act };
}

export type Action = ReturnType<typeof useAction>;

export function AskedAction({
  action,
  label,
  primary = false,
  shown = true,
  disabled = false,
  describedBy,
  title,
  confirmLabel,
  confirmDisabled,
  onConfirm,
  children,
}: {
  action: Action;
  label: string;
  /** The bar's main action (Publish). */
  primary?: boolean;
  /** Whether its button is there; its messages stay either way. */
  shown?: boolean;
  disabled?: boolean;
  /** The id of what says why it is disabled. */
  describedBy?: string;
  title: string;
  confirmLabel: string;
  confirmDisabled?: boolean;
  onConfirm: () => void;
  /** The question's text (and fields). */
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <div className="contents">
      <div aria-live="polite" className="order-last basis-full text-sm">
        {action.status && (
          <p role="status" className="pb-1 text-emerald-300">
            {action.status}
          </p>
        )}
      </div>
      {action.error && (
        <p role="alert" className="order-last basis-full pb-1 text-sm text-red-300">
          {action.error}
        </p>
      )}
      {shown && (
        <button
          type="button"
          className={`btn ${primary ? 'btn-primary' : 'btn-secondary'}`}
          disabled={action.busy || disabled}
          aria-describedby={describedBy}
          onClick={() => setAsking(true)}
        >
          {label}
        </button>
      )}
      <ConfirmDialog open={asking} title={title} confirmLabel={confirmLabel} confirmDisabled={confirmDisabled} onConfirm={onConfirm} onClose={() => setAsking(false)}>
        {children}
      </ConfirmDialog>
    </div>
  );
}
