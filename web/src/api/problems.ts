/**
 * The server names a field's problem in a few words ("is required", "must be at most 100
 * characters", keyed by the field's JSON name); these word it as sentences that say what to do,
 * one helper for every form of the dashboard and the sign-in pages.
 */
import { ApiError } from './client';

/** The fields the API names, as a sentence names them. */
const NOUNS: Record<string, string> = {
  code: 'the code',
  email: 'your e-mail address',
  password: 'your password',
  currentPassword: 'your current password',
  newPassword: 'the new password',
  name: 'a name',
  company: 'the company',
  role: 'the role',
  note: 'the note',
  language: 'the language',
  expiresAt: 'the expiry',
  recipientEmail: "the recipient's e-mail address",
  followUpDays: 'the days before a follow-up',
  token: 'this link',
  challengeId: 'this step',
  credential: 'the passkey',
};

/** Problems said another way, for one field (`field:problem`) or any (`problem`); `{}` is its noun. */
const SAID: Record<string, string> = {
  'code:must be the six digits the app shows': 'Enter the six digits your authenticator app shows now.',
  'expiresAt:must be in the future': 'Choose a day after today, or none.',
  'is not correct': '{} is not correct. Check it and try again.',
  'must match ^#[0-9a-fA-F]{6}$': 'Use # and six hexadecimal digits, such as #155dfc.',
  // An address's last part (a case study's slug, a post's): `SLUG_PATTERN` on the server.
  'must match ^[a-z0-9]+(-[a-z0-9]+)*$': '{} takes lower-case letters and digits, with single dashes between words, such as my-first-post.',
};

const upper = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * One problem as a sentence: "Enter the company.", "The role must be at most 100 characters.";
 * `noun` names the field (its label will do) when the API's name is not one of the known ones.
 */
export function sentence(field: string, problem: string, noun = NOUNS[field] ?? field): string {
  const said = SAID[`${field}:${problem}`] ?? SAID[problem];
  if (said) return upper(said.replace('{}', noun));
  if (/^(is required|must not be empty)$/.test(problem) && /^[a-z]/.test(noun)) return `Enter ${noun}.`;
  const text = /^(is|must|has|was|are|repeats)\b/.test(problem) ? `${noun} ${problem}` : problem;
  return upper(text.replace(/; (\w)/g, (_, first: string) => `. ${first.toUpperCase()}`)) + (/[.!?]$/.test(text) ? '' : '.');
}

/**
 * What to tell a person of a failed request: each field's problem as a sentence (`nouns` names the
 * form's own fields), else the server's message, which is one already.
 */
export function problemText(cause: unknown, nouns: Record<string, string> = {}): string {
  if (cause instanceof ApiError) {
    const fields = Object.entries(cause.fields);
    return fields.length > 0 ? fields.map(([field, problem]) => sentence(field, problem, nouns[field])).join(' ') : cause.message;
  }
  return cause instanceof Error ? cause.message : 'Something went wrong. Please try again.';
}
