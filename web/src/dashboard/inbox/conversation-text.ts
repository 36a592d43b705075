/** The conversation's words and figures, for the owner: pure, so they are tested on their own. */
import type { ConversationItem } from '../../api/conversation';

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** A file's size as people read it: `512 bytes`, `1.5 KB`, `12 KB`, `3.2 MB` (1 KB = 1,024 bytes). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1024;
  let unit = 0;
  // 1,023.7 KB would round to "1024 KB": it is said in the next unit instead.
  while (Math.round(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value < 9.95 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${shown} ${UNITS[unit]}`;
}

/** Why no reply can be sent from here (the conversation's `replyBlocked`). */
export function blockedText(reason: string | null): string {
  if (reason === 'mail_off') return 'Replies are sent by e-mail: start the server with --smtp-url and --notify-email.';
  if (reason === 'spam') return 'Move this message out of Spam to reply.';
  return 'Replies cannot be sent from here now.';
}

/** Where the visitor's answers go, said under the reply's field. */
export function answersText(replyAddress: string | null, readsAnswers: boolean): string {
  if (!replyAddress) return readsAnswers ? 'Their answers come back into this conversation.' : '';
  return readsAnswers
    ? `Their answers go to ${replyAddress} and come back into this conversation.`
    : `Their answers go to ${replyAddress}, not back here: the server reads no mailbox for them.`;
}

/** Whether a reply is still on its way (pending, sending or retrying): the conversation is looked at again until none is. */
export function awaitsDelivery(items: readonly ConversationItem[]): boolean {
  return items.some((item) => item.delivery !== null && item.delivery.status !== 'sent' && item.delivery.status !== 'failed');
}
