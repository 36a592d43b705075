import { useEffect, useRef, useState } from 'react';
import { ArrowLeft, MailOpen, Reply, RotateCcw, ShieldAlert, ShieldCheck, Trash2 } from 'lucide-react';
import { viaText, type Message } from '../../api/inbox';
import type { Conversation } from '../../api/conversation';
import { ConversationItems, ReplySection } from './conversation';
import { useConversation } from './use-conversation';
import type { Inbox } from './use-inbox';
import type { DeliveryState } from './use-delivery';
import { DeliveryDetails } from './delivery-status';
import { fullDate, isoDate, replyHref } from '../shared/format';
import { spamReasonText } from './spam-reasons';

/**
 * A message in full, with what the owner can do to it, and its conversation: the replies and
 * answers, and the reply's form. A chunk of its own, fetched when a message first opens.
 */
export default function MessageView({
  inbox,
  message,
  delivery,
  conversation: opened,
}: {
  inbox: Inbox;
  message: Message;
  delivery: DeliveryState;
  conversation: Conversation;
}) {
  const [confirming, setConfirming] = useState(false);
  const { conversation, send, retry } = useConversation(opened);
  const replyField = useRef<HTMLTextAreaElement>(null);
  const inTrash = message.deletedAt !== null;
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The opened message takes the focus, so a screen reader starts reading it and, on a phone
  // where the list steps aside, the focus is not left on a hidden button.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <article aria-labelledby="message-subject" className="rounded-xl border border-gray-800 bg-gray-900/40 p-5 sm:p-6">
      <button type="button" onClick={inbox.close} className="btn btn-ghost -ml-3 mb-3 px-3 lg:hidden">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to the list
      </button>
      <h2 id="message-subject" ref={headingRef} tabIndex={-1} className="text-xl font-bold break-words text-white outline-none">
        {message.subject || '(no subject)'}
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-gray-400">From</dt>
        <dd className="break-words text-gray-100">
          {message.name} &lt;{message.email}&gt;
        </dd>
        <dt className="text-gray-400">Received</dt>
        <dd className="text-gray-100">
          <time dateTime={isoDate(message.createdAt)}>{fullDate(message.createdAt)}</time>
        </dd>
        {message.via && (
          <>
            <dt className="text-gray-400">Application</dt>
            <dd className="text-gray-100">{viaText(message.via)}</dd>
          </>
        )}
        <dt className="text-gray-400">Notification</dt>
        <DeliveryDetails status={delivery.statuses.get(message.id)} isSpam={message.isSpam} onRetry={delivery.retry} />
        {message.isSpam && message.spamReason && (
          <>
            <dt className="text-gray-400">Spam</dt>
            <dd className="text-gray-100">{spamReasonText(message.spamReason)}</dd>
          </>
        )}
      </dl>
      <div className="mt-5 max-w-[70ch] border-t border-gray-800 pt-5 break-words whitespace-pre-wrap text-gray-200">
        {message.message}
      </div>

      <div className="mt-6 flex flex-wrap gap-2 border-t border-gray-800 pt-5">
        {conversation.canReply ? (
          <button type="button" className="btn btn-primary" onClick={() => replyField.current?.focus()}>
            <Reply aria-hidden="true" className="size-4" />
            Reply
          </button>
        ) : (
          // Without the server's e-mail, the owner's own mail program replies.
          conversation.replyBlocked === 'mail_off' && (
            <a className="btn btn-primary" href={replyHref(message.email, message.subject)}>
              <Reply aria-hidden="true" className="size-4" />
              Reply by e-mail
            </a>
          )
        )}
        {!inTrash && (
          <button type="button" className="btn btn-secondary" onClick={() => void inbox.markUnread(message)}>
            <MailOpen aria-hidden="true" className="size-4" />
            Mark as unread
          </button>
        )}
        {!inTrash &&
          (message.isSpam ? (
            <button type="button" className="btn btn-secondary" onClick={() => void inbox.markNotSpam(message)}>
              <ShieldCheck aria-hidden="true" className="size-4" />
              Not spam
            </button>
          ) : (
            <button type="button" className="btn btn-secondary" onClick={() => void inbox.markSpam(message)}>
              <ShieldAlert aria-hidden="true" className="size-4" />
              Mark as spam
            </button>
          ))}
        {inTrash ? (
          <>
            <button type="button" className="btn btn-secondary" onClick={() => void inbox.restore(message)}>
              <RotateCcw aria-hidden="true" className="size-4" />
              Restore
            </button>
            <button type="button" className="btn btn-secondary hover:border-red-400" onClick={() => setConfirming(true)}>
              <Trash2 aria-hidden="true" className="size-4" />
              Delete forever
            </button>
          </>
        ) : (
          <button type="button" className="btn btn-secondary hover:border-red-400" onClick={() => void inbox.trash(message)}>
            <Trash2 aria-hidden="true" className="size-4" />
            Delete
          </button>
        )}
      </div>
      {confirming && (
        <div role="group" aria-labelledby="confirm-delete" className="mt-4 rounded-lg border border-red-400/40 bg-red-950/30 p-4">
          <p id="confirm-delete" className="text-sm text-red-100">
            Delete this message for good? This cannot be undone.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <button type="button" className="btn bg-red-700 text-white hover:bg-red-800" onClick={() => void inbox.deleteForever(message)}>
              Yes, delete forever
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <ConversationItems conversation={conversation} onRetry={retry} />
      <ReplySection conversation={conversation} send={send} field={replyField} />
    </article>
  );
}
