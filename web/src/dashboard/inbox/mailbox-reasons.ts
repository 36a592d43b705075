/**
 * Why the server filed a mail of the site's mailbox into no conversation (its `reason`), in words
 * for the owner; an unknown code (from a newer server) is shown as it is.
 */
export function unmatchedReason(reason: string): string {
  if (reason === 'no-reference') return 'It answers none of your replies.';
  if (reason === 'other-sender') return 'It answers a reply, but from another address than the conversation’s.';
  return reason;
}
