import { useState } from 'react';
import { AlertTriangle, BellOff, CheckCircle2, Clock, RefreshCw } from 'lucide-react';
import { plainError, type Delivery, type MessageDelivery } from '../../api/notifications';
import { fullDate, shortDate } from '../shared/format';

const CHANNEL: Record<Delivery['channel'], string> = { email: 'E-mail', webhook: 'Webhook' };

/** Why a message notified no one, in words. */
function notRequested(isSpam: boolean): string {
  return isSpam ? 'Not sent: caught as spam' : 'Not sent: notifications were off';
}

/** A short word in the list: notified, retrying, waiting, or not asked for. */
export function DeliveryBadge({ status, isSpam }: { status: MessageDelivery | undefined; isSpam: boolean }) {
  if (!status) return null;
  const [text, tone, Icon] =
    status.status === 'sent'
      ? (['Notified', 'text-emerald-300', CheckCircle2] as const)
      : status.status === 'retrying'
        ? (['Notification retrying', 'text-amber-300', AlertTriangle] as const)
        : status.status === 'pending'
          ? (['Notification waiting', 'text-gray-300', Clock] as const)
          : ([isSpam ? 'No notification (spam)' : 'No notification', 'text-gray-400', BellOff] as const);
  return (
    <span className={`mt-1 inline-flex items-center gap-1 text-xs ${tone}`} data-delivery={status.status}>
      <Icon aria-hidden="true" className="size-3.5" />
      {text}
    </span>
  );
}

/** The notification of an opened message, channel by channel, with "Retry now" while one fails. */
export function DeliveryDetails({
  status,
  isSpam,
  onRetry,
}: {
  status: MessageDelivery | undefined;
  isSpam: boolean;
  onRetry: (id: number) => Promise<string | null>;
}) {
  const [retryError, setRetryError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  if (!status) return <dd className="text-gray-400">Checking…</dd>;
  if (status.deliveries.length === 0) return <dd className="text-gray-300">{notRequested(isSpam)}</dd>;
  return (
    <dd className="space-y-2 text-gray-100" aria-live="polite">
      {status.deliveries.map((d) => (
        <div key={d.id} data-delivery={d.status}>
          <p>
            <span className="text-gray-400">{CHANNEL[d.channel]}: </span>
            {d.status === 'sent' && d.sentAt !== null && <>Sent {fullDate(d.sentAt)}</>}
            {d.status === 'pending' && <>Waiting to be sent</>}
            {d.status === 'sending' && <>Being sent now</>}
            {d.status === 'failed' && <>Not sent</>}
            {d.status === 'retrying' && (
              <>
                Retrying after {d.attempts} failed {d.attempts === 1 ? 'attempt' : 'attempts'}
                {d.nextAttemptAt !== null && <>; next try at {shortDate(d.nextAttemptAt)}</>}
              </>
            )}
          </p>
          {d.status === 'failed' && d.lastError && <p className="text-sm text-amber-200">{plainError(d.lastError)}</p>}
          {d.status === 'retrying' && (
            <>
              <p className="text-sm text-amber-200">{plainError(d.lastError)}</p>
              <button
                type="button"
                className="btn btn-secondary mt-2 min-h-9 px-3 text-sm"
                disabled={busy === d.id}
                onClick={() => {
                  setBusy(d.id);
                  void onRetry(d.id).then((error) => {
                    setRetryError(error);
                    setBusy(null);
                  });
                }}
              >
                <RefreshCw aria-hidden="true" className="size-4" />
                Retry now
              </button>
            </>
          )}
        </div>
      ))}
      {retryError && (
        <p role="alert" className="field-error">
          {retryError}
        </p>
      )}
    </dd>
  );
}
