import { expect, test } from 'vitest';
import { defaultDocument as doc } from './document';
import { profile } from './profile';
import { projects } from './projects';
import { skills } from './skills';
import { education, work } from './timeline';

/**
 * The page still reads its content from these modules, which keeps the document (about 2 KB
 * gzipped, most of it for sections loaded later) out of the landing's initial JavaScript until
 * the server renders `/` from the document. Until then, the default document must say exactly
 * what the page shows.
 */
test('the page shows what the default content document says', () => {
  expect(profile.name).toBe(doc.profile.name);
  expect(profile.role).toBe(doc.profile.role);
  expect(profile.summary).toBe(doc.profile.summary);
  expect(profile.location).toEqual(doc.profile.location);
  expect(profile.typewriterPhrases).toEqual(doc.typewriterPhrases);
  expect(profile.email).toBe(doc.contact.email);
  expect(profile.phone).toEqual(doc.contact.phone);
  expect(profile.resume).toBe(doc.resume.path);
  expect(Object.entries(profile.links)).toEqual(doc.social.map((link) => [link.id, link.url]));
  expect(skills.map((skill) => skill.name)).toEqual(doc.skills.map((skill) => skill.name));
  expect(
    projects.map(({ id, title, description, gitlink, liveUrl, technologies, stack }) => ({
      id,
      title,
      description,
      codeUrl: gitlink,
      demoUrl: liveUrl,
      technologies,
      stack,
    })),
  ).toEqual(doc.projects.map(({ image: _image, ...rest }) => rest));
  const entries = (list: typeof doc.experience) =>
    list.map(({ title, place, date, description, awards }) => ({
      title,
      place,
      date,
      description,
      awards: (awards ?? []).map((award) => award.title),
    }));
  const shown = (list: typeof work) => list.map((entry) => ({ ...entry, awards: [...(entry.awards ?? [])] }));
  expect(shown(work)).toEqual(entries(doc.experience));
  expect(shown(education)).toEqual(entries(doc.education));
});
