/**
 * The server's spam codes (`spamReason`), in plain words for the owner. The codes are stable;
 * an unknown one (from a newer server) is shown as it is.
 */
const REASONS: Record<string, string> = {
  honeypot: 'A hidden field that only robots fill in was filled in.',
  'token-missing': 'Sent without the form’s start token: not from the contact form.',
  'token-forged': 'Sent with a form token this site never issued.',
  'token-expired': 'Sent with a form token more than an hour old.',
  'token-replayed': 'Sent with a form token an earlier message had already used.',
  'too-fast': 'Sent less than 3 seconds after the form was first used.',
  'challenge-missing': 'Sent without the background check the contact form solves.',
  'challenge-failed': 'The background check was answered wrongly or too late.',
  'challenge-replayed': 'The background check had already been used by another message.',
  content: 'Too many links, or nothing but a link.',
  ceiling: 'More messages than the site’s hourly limit arrived; no e-mail was sent for this one.',
};

export function spamReasonText(code: string): string {
  return REASONS[code] ?? code;
}
