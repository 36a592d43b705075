/** Work experience and education, newest first, read from the content document. Plain data: the resume generator reads it too. */
import { defaultDocument as doc, type TimelineEntry as DocumentEntry } from './document';

export interface TimelineEntry {
  title: string;
  place: string;
  date: string;
  description: string;
  /** Award names; each becomes a link that opens its certificate. */
  awards?: readonly string[];
}

const entry = ({ title, place, date, description, awards }: DocumentEntry): TimelineEntry => ({
  title,
  place,
  date,
  description,
  ...(awards.length > 0 ? { awards: awards.map((award) => award.title) } : {}),
});

export const work: readonly TimelineEntry[] = doc.experience.map(entry);

export const education: readonly TimelineEntry[] = doc.education.map(entry);
