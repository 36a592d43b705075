import { AlertTriangle, CheckCircle2, LoaderCircle, X } from 'lucide-react';
import { plainError, type DeliveryHealth } from '../../api/notifications';
import type { TestEmail } from './use-delivery';

/** Said plainly when notifications keep failing, so that none fails silently. */
export function DeliveryBanner({ health }: { health: DeliveryHealth | null }) {
  return (
    <div role="alert">
      {health?.alert && (
        <div className="mb-6 flex gap-3 rounded-xl border border-amber-400/40 bg-amber-950/40 p-4 text-amber-100">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <div>
            <p className="font-semibold">Notifications are failing.</p>
            <p className="mt-1 text-sm">
              {health.pending === 1
                ? 'A notification of a new message has not reached you yet'
                : `${health.pending} notifications of new messages have not reached you yet`}
              ; the server keeps trying. {health.lastError && <>Last error: {plainError(health.lastError)}</>}
            </p>
          </div>
        </div>
      )}
    </div>
  );
}

/** The test e-mail's progress and result. */
export function TestEmailResult({ test, onDismiss }: { test: TestEmail | null; onDismiss: () => void }) {
  return (
    <>
      <div role="status">
        {test?.state === 'sending' && (
          <p className="mb-6 flex items-center gap-2 rounded-xl border border-gray-800 p-4 text-gray-200">
            <LoaderCircle aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />
            Sending a test e-mail…
          </p>
        )}
        {test?.state === 'sent' && (
          <p className="mb-6 flex items-center gap-2 rounded-xl border border-emerald-400/40 bg-emerald-950/30 p-4 text-emerald-100">
            <CheckCircle2 aria-hidden="true" className="size-5" />
            Test e-mail sent: check your inbox.
            <DismissButton onDismiss={onDismiss} />
          </p>
        )}
      </div>
      <div role="alert">
        {test?.state === 'failed' && (
          <p className="mb-6 flex items-center gap-2 rounded-xl border border-red-400/40 bg-red-950/30 p-4 text-red-100">
            <AlertTriangle aria-hidden="true" className="size-5 shrink-0" />
            The test e-mail was not sent. {test.error}
            <DismissButton onDismiss={onDismiss} />
          </p>
        )}
      </div>
    </>
  );
}

function DismissButton({ onDismiss }: { onDismiss: () => void }) {
  return (
    <button type="button" aria-label="Dismiss" className="icon-btn ml-auto border-0 bg-transparent" onClick={onDismiss}>
      <X aria-hidden="true" className="size-4" />
    </button>
  );
}
