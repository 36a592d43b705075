/**
 * The site's mailbox (`--imap-url`), where visitors' answers arrive: when it was last read or why
 * reading it fails, and the mail it could not file into a conversation, which stays there
 * untouched. Shown only when the server reads a mailbox; a chunk of its own.
 */
import { useEffect, useId, useState } from 'react';
import { AlertTriangle, MailCheck } from 'lucide-react';
import { readMailbox, type MailboxStatus } from '../../api/conversation';
import { plainError } from '../../api/notifications';
import { fullDate, isoDate, shortDate } from '../shared/format';
import { unmatchedReason } from './mailbox-reasons';

/** How often the panel looks again while the page is shown. */
const POLL_MS = 60_000;

export default function MailboxPanel() {
  const id = useId();
  const [status, setStatus] = useState<MailboxStatus | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const load = () =>
      readMailbox(controller.signal).then(setStatus, () => {
        // Keep what was last known (nothing, at first: the panel stays away).
      });
    void load();
    const shown = () => {
      if (document.visibilityState === 'visible') void load();
    };
    const timer = window.setInterval(shown, POLL_MS);
    window.addEventListener('focus', shown);
    return () => {
      controller.abort();
      window.clearInterval(timer);
      window.removeEventListener('focus', shown);
    };
  }, []);

  if (!status?.configured) return null;
  const count = status.unmatched.length;
  return (
    <section aria-labelledby={`${id}-title`} className="mt-6 rounded-xl border border-gray-800 bg-gray-900/40 p-3 text-sm">
      <h2 id={`${id}-title`} className="flex items-center gap-2 font-semibold text-white">
        <MailCheck aria-hidden="true" className="size-4 text-gray-400" />
        Site mailbox
      </h2>
      {status.lastError ? (
        <p className="mt-1 flex gap-1.5 text-amber-200">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            Not read: {plainError(status.lastError)}
            {status.readAt !== null && (
              <>
                {' '}
                Last read <time dateTime={isoDate(status.readAt)}>{fullDate(status.readAt)}</time>.
              </>
            )}
          </span>
        </p>
      ) : (
        <p className="mt-1 text-gray-300">
          {status.readAt === null ? (
            'Not read yet.'
          ) : (
            <>
              Read <time dateTime={isoDate(status.readAt)}>{shortDate(status.readAt)}</time>
            </>
          )}
        </p>
      )}
      {status.replyAddress && <p className="mt-1 break-words text-gray-400">Answers arrive at {status.replyAddress}.</p>}
      {count > 0 && (
        <details className="mt-2">
          <summary className="cursor-pointer rounded text-blue-300 hover:text-blue-200">
            {count === 1 ? '1 mail not filed' : `${count} mails not filed`}
          </summary>
          <p className="mt-2 text-gray-300">
            These answer no conversation of the inbox. They stay in the mailbox, untouched: read them with your mail program.
          </p>
          <ul className="mt-2 space-y-2">
            {status.unmatched.map((mail) => {
              const at = mail.date ?? mail.seenAt;
              return (
                <li key={mail.id} className="rounded-md border border-gray-800 p-2">
                  <p className="font-medium break-words text-gray-100">{mail.subject || '(no subject)'}</p>
                  <p className="break-words text-gray-400">
                    {mail.from ?? 'Unknown sender'}, <time dateTime={isoDate(at)}>{shortDate(at)}</time>
                  </p>
                  <p className="text-gray-300">{unmatchedReason(mail.reason)}</p>
                </li>
              );
            })}
          </ul>
        </details>
      )}
    </section>
  );
}
