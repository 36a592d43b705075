/** Dates as the owner reads them: today's by the time, older ones by the date. */
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const day = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayWithYear = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function shortDate(ms: number, now = Date.now()): string {
  const date = new Date(ms);
  const today = new Date(now);
  if (date.toDateString() === today.toDateString()) return time.format(date);
  if (date.getFullYear() === today.getFullYear()) return day.format(date);
  return dayWithYear.format(date);
}

export function fullDate(ms: number): string {
  return full.format(new Date(ms));
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString();
}

/** `mailto:` addressed to the sender, with `Re: subject`. */
export function replyHref(email: string, subject: string): string {
  const re = /^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`;
  return `mailto:${encodeURIComponent(email).replace(/%40/g, '@')}?subject=${encodeURIComponent(re)}`;
}

/** A case study's count in words: its project's title, or its id for a project no longer on the page. */
export function caseStudyLabel(count: { project: string; title?: string | null }): string {
  if (count.title) return count.title;
  return count.project === '(other)' ? 'Others' : `${count.project} (no longer on the page)`;
}

/** What a link's readers read: "Read the case study of Payments" (…"of Payments and Shop"). */
export function caseStudiesRead(counts: readonly { project: string; title?: string | null }[]): string {
  const names = new Intl.ListFormat('en', { type: 'conjunction' }).format(counts.map(caseStudyLabel));
  return `Read the case ${counts.length === 1 ? 'study' : 'studies'} of ${names}.`;
}

/** A post's count in words: its title, or its id for a post no longer published (`(other)`, a day's posts past those kept, is "Others"). */
export function postLabel(count: { post: string; title?: string | null }): string {
  if (count.title) return count.title;
  return count.post === '(other)' ? 'Others' : `${count.post} (no longer published)`;
}

/** What a link's readers read: `Read the post “Hello”.` (…`the posts “Hello” and “Later”.`). */
export function postsRead(counts: readonly { post: string; title?: string | null }[]): string {
  const names = new Intl.ListFormat('en', { type: 'conjunction' }).format(counts.map((count) => `“${postLabel(count)}”`));
  return `Read the post${counts.length === 1 ? '' : 's'} ${names}.`;
}

const MOMENT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A moment to come, as the owner reads it: `5 Dec 2026, 17:25`. */
export const momentText = (ms: number) => MOMENT.format(ms);
