/**
 * A message's conversation: the owner's replies (with their delivery) and the visitor's answers
 * (their quoted mail and signature folded, their attachments listed), then the reply's form.
 */
import { useId, useState, type FormEvent, type RefObject } from 'react';
import { Download, Paperclip, Send } from 'lucide-react';
import { attachmentUrl, type Attachment, type Conversation, type ConversationItem, type ItemPart } from '../../api/conversation';
import { DeliveryDetails } from './delivery-status';
import { answersText, blockedText, formatSize } from './conversation-text';
import type { SendOutcome } from './use-conversation';
import { fullDate, isoDate } from '../shared/format';

/** The replies and answers, oldest first; nothing while there are none. */
export function ConversationItems({
  conversation,
  onRetry,
}: {
  conversation: Conversation;
  onRetry: (deliveryId: number) => Promise<string | null>;
}) {
  const titleId = useId();
  if (conversation.items.length === 0) return null;
  return (
    <section aria-labelledby={titleId} className="mt-6 border-t border-gray-800 pt-5">
      <h3 id={titleId} className="text-lg font-semibold text-white">
        Conversation
      </h3>
      <ol className="mt-3 space-y-4">
        {conversation.items.map((item) => (
          <li key={`${item.kind}-${item.id}`}>
            <ItemView item={item} conversation={conversation} onRetry={onRetry} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function ItemView({
  item,
  conversation,
  onRetry,
}: {
  item: ConversationItem;
  conversation: Conversation;
  onRetry: (deliveryId: number) => Promise<string | null>;
}) {
  const headingId = useId();
  const reply = item.kind === 'reply';
  const message = conversation.message;
  return (
    <article
      aria-labelledby={headingId}
      data-kind={item.kind}
      className={`rounded-lg border p-4 ${reply ? 'border-blue-900/60 bg-blue-950/20' : 'border-gray-800 bg-gray-900/60'}`}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h4 id={headingId} className="font-semibold break-words text-white">
          {reply ? 'You' : message.name} <span className="font-normal text-gray-400">{reply ? 'replied' : 'answered'}</span>
        </h4>
        <time dateTime={isoDate(item.createdAt)} className="text-sm text-gray-400">
          {fullDate(item.createdAt)}
        </time>
      </header>
      {!reply && item.from && <p className="text-sm break-words text-gray-400">From {item.from}</p>}
      {reply ? (
        <div className="mt-3 max-w-[70ch] break-words whitespace-pre-wrap text-gray-200">{item.text}</div>
      ) : (
        <AnswerText parts={item.parts} />
      )}
      {(item.fromHtml || item.cut) && (
        <ul className="mt-3 space-y-1 text-sm text-gray-400">
          {item.fromHtml && <li>Sent as HTML, shown as text.</li>}
          {item.cut && <li>Too long to keep whole: the end of this answer was cut.</li>}
        </ul>
      )}
      {item.attachments.length > 0 && <Attachments messageId={message.id} attachments={item.attachments} />}
      {item.delivery && (
        <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 border-t border-gray-800 pt-3 text-sm">
          <dt className="text-gray-400">Delivery</dt>
          <DeliveryDetails
            status={{ messageId: message.id, status: item.delivery.status, deliveries: [item.delivery] }}
            isSpam={false}
            onRetry={onRetry}
          />
        </dl>
      )}
    </article>
  );
}

const FOLDED: Record<string, string> = { quote: 'Show quoted text', signature: 'Show signature' };

/** What the visitor wrote, with the mail they quoted and their signature folded (kept whole). */
function AnswerText({ parts }: { parts: ItemPart[] }) {
  return (
    <div className="mt-3 max-w-[70ch] space-y-2 break-words text-gray-200">
      {parts.map((part, index) =>
        part.kind in FOLDED ? (
          <details key={index} className="text-sm text-gray-300">
            <summary className="w-fit cursor-pointer rounded text-blue-300 hover:text-blue-200">{FOLDED[part.kind]}</summary>
            <div className="mt-2 border-l-2 border-gray-700 pl-3 whitespace-pre-wrap">{part.text}</div>
          </details>
        ) : (
          <div key={index} className="whitespace-pre-wrap">
            {part.text}
          </div>
        ),
      )}
    </div>
  );
}

function Attachments({ messageId, attachments }: { messageId: number; attachments: Attachment[] }) {
  return (
    <ul aria-label="Attachments" className="mt-3 space-y-2 text-sm">
      {attachments.map((file) => (
        <li key={file.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-gray-800 px-3 py-2">
          <Paperclip aria-hidden="true" className="size-4 shrink-0 text-gray-400" />
          <span className="min-w-0 font-medium break-all text-gray-100">{file.name}</span>
          <span className="text-gray-400">
            {formatSize(file.size)}, {file.contentType}
          </span>
          {file.stored ? (
            <a className="link ml-auto inline-flex min-h-11 items-center gap-1" href={attachmentUrl(messageId, file.id)} download={file.name}>
              <Download aria-hidden="true" className="size-4" />
              Download<span className="sr-only"> {file.name}</span>
            </a>
          ) : (
            <span className="ml-auto text-gray-400">Too large to keep</span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The reply's form, or why there is none. */
export function ReplySection({
  conversation,
  send,
  field,
}: {
  conversation: Conversation;
  send: (body: string) => Promise<SendOutcome>;
  field: RefObject<HTMLTextAreaElement | null>;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const { message } = conversation;

  if (!conversation.canReply) {
    return (
      <p className="mt-6 rounded-lg border border-gray-800 bg-gray-900/60 p-4 text-sm text-gray-300">
        {blockedText(conversation.replyBlocked)}
      </p>
    );
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    setProblem(null);
    setError(null);
    setDone('');
    const outcome = await send(text);
    setSending(false);
    if (outcome.ok) {
      setText('');
      setDone(`Reply queued in the outbox: it is e-mailed to ${message.name} in a moment, and its delivery shows above.`);
    } else {
      setProblem(outcome.field);
      setError(outcome.error);
    }
    field.current?.focus();
  }

  const answers = answersText(conversation.replyAddress, conversation.readsAnswers);
  return (
    <section aria-labelledby={`${id}-title`} className="mt-6 border-t border-gray-800 pt-5">
      <h3 id={`${id}-title`} className="text-lg font-semibold text-white">
        Reply to {message.name}
      </h3>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-3">
        <label htmlFor={`${id}-body`} className="field-label">
          Your reply
        </label>
        <textarea
          id={`${id}-body`}
          ref={field}
          rows={6}
          value={text}
          spellCheck
          onChange={(event) => {
            setText(event.target.value);
            setProblem(null);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error ${id}-hint` : `${id}-hint`}
          className="field-input max-w-[70ch]"
        />
        {problem && (
          <p id={`${id}-error`} className="field-error">
            {problem}
          </p>
        )}
        <p id={`${id}-hint`} className="mt-1.5 max-w-[70ch] text-sm text-gray-400">
          Sent by e-mail to {message.email}, with their latest words quoted below yours. {answers}
        </p>
        <button type="submit" className="btn btn-primary mt-4" disabled={sending}>
          <Send aria-hidden="true" className="size-4" />
          {sending ? 'Sending…' : 'Send reply'}
        </button>
        <p role="status" className="mt-2 text-sm text-emerald-200">
          {done}
        </p>
        <p role="alert" className="field-error">
          {error}
        </p>
      </form>
    </section>
  );
}
