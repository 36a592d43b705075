/**
 * A case study in the page's other languages: each text translated side by side with its own
 * wording. A language's pages show the case study once every text is translated (or kept the same,
 * for units and link labels); until then they show the project's card without the link, which
 * the owner is told here.
 */
import { useState } from 'react';
import type { CaseStudy, CaseStudyTranslation, Language } from '../../content/document';
import { CASE_SAMEABLE, caseTextFields, missingCaseTexts, translationOf } from './case-study-texts';
import { fieldId, Group } from '../shared/draft/fields';
import { MissingList, nameOf, Section, TranslationRow } from './languages-form';
import { markSame } from './translations';
import type { Problems } from './validate';

type Edit = (change: (draft: CaseStudy) => void) => void;

interface Props {
  study: CaseStudy;
  /** The page's other languages, as its draft has them. */
  languages: Pick<Language, 'tag' | 'published'>[];
  /** The page's default language, the case study's own. */
  sourceTag: string;
  problems: Problems;
  edit: Edit;
}

/** Where a problem is, in the owner's words: “German: Decision 2: why” for a translation's text. */
export function translationPlace(study: CaseStudy, path: string): string | undefined {
  const match = /^translations\[(\d+)\]\.texts\.(.+)$/.exec(path);
  const translation = match && study.translations?.[Number(match[1])];
  if (!match || !translation) return undefined;
  const field = caseTextFields(study).find((f) => f.path === match[2]);
  return `${nameOf(translation.tag)}: ${field?.label ?? match[2]}`;
}

export function CaseStudyTranslations({ study, languages, sourceTag, problems, edit }: Props) {
  // Translations into a language the page no longer has: the server refuses them, so the owner removes them.
  const gone = (study.translations ?? []).filter((t) => !languages.some((l) => l.tag.toLowerCase() === t.tag.toLowerCase()));
  return (
    <Group title="Translations" level={3}>
      {gone.map((translation) => (
        <div key={translation.tag} className="flex flex-wrap items-center gap-3 text-sm text-amber-200">
          <p id={fieldId(`translations[${study.translations!.indexOf(translation)}].tag`)}>
            The page no longer has {nameOf(translation.tag)} ({translation.tag}): its translation of the case study cannot be saved.
          </p>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() =>
              edit((d) => {
                d.translations = d.translations?.filter((t) => t.tag !== translation.tag);
                if (!d.translations?.length) delete d.translations;
              })
            }
          >
            Remove the {nameOf(translation.tag)} translation
          </button>
        </div>
      ))}
      {languages.length === 0 ? (
        <p className="text-sm text-gray-400">
          The page is in {nameOf(sourceTag)} only. Once you add a language in the Languages part, the case study is translated here.
        </p>
      ) : (
        languages.map((language, n) => (
          <CaseLanguage
            key={language.tag}
            study={study}
            language={language}
            index={indexOf(study, languages, n)}
            sourceTag={sourceTag}
            problems={problems}
            edit={edit}
          />
        ))
      )}
    </Group>
  );
}

/**
 * The index of the `n`th language's translation: where it is, or where it would go once begun
 * (after those begun, in the languages' order), so that no two languages share their fields' ids.
 */
function indexOf(study: CaseStudy, languages: Props['languages'], n: number): number {
  const translation = translationOf(study, languages[n]!.tag);
  if (translation) return study.translations!.indexOf(translation);
  const waiting = languages.slice(0, n).filter((l) => !translationOf(study, l.tag)).length;
  return (study.translations?.length ?? 0) + waiting;
}

function CaseLanguage({
  study,
  language,
  index,
  sourceTag,
  problems,
  edit,
}: Omit<Props, 'languages'> & { language: Pick<Language, 'tag' | 'published'>; index: number }) {
  const { tag } = language;
  const name = nameOf(tag);
  const translation = translationOf(study, tag);
  const at = `translations[${index}]`;
  const fields = caseTextFields(study).filter((field) => field.value.trim() !== '');
  const missing = missingCaseTexts(study, tag);
  const hasProblems = Object.keys(problems).some((path) => path.startsWith(`${at}.`));
  const [open, setOpen] = useState(hasProblems || (!!translation && missing.length > 0));
  const same = new Set(translation?.same);
  const address = `/${tag.toLowerCase()}/projects/${study.slug}/`;

  const change = (update: (entry: CaseStudyTranslation) => void) =>
    edit((d) => {
      const list = (d.translations ??= []);
      let entry = translationOf(d, tag);
      if (!entry) list.push((entry = { tag, texts: {} }));
      update(entry);
      // A translation emptied again is dropped, as if it had never been begun.
      if (Object.keys(entry.texts).length === 0 && !entry.same?.length) list.splice(list.indexOf(entry), 1);
      if (list.length === 0) delete d.translations;
    });

  return (
    <section aria-labelledby={`${fieldId(at)}-heading`} className="rounded-lg border border-gray-800 p-4">
      <h4 id={`${fieldId(at)}-heading`} className="text-base font-semibold text-white">
        {name} ({tag})
      </h4>
      <p className="mt-1 text-sm text-gray-300">
        {missing.length === 0
          ? `Shown at ${address} once the case study is published${language.published ? '' : ` and ${name} is published in the Languages part`}.`
          : `Until every text is translated, the ${name} page shows the project's card without a link to the case study.`}
      </p>
      <MissingList
        name={name}
        until={`the ${name} page shows the case study`}
        entries={missing.map((field) => ({ id: fieldId(`${at}.texts.${field.path}`), label: field.label, reveal: () => setOpen(true) }))}
      />
      <Section id={`${fieldId(at)}-texts`} title={`Translate the case study into ${name}`} open={open} onToggle={() => setOpen((o) => !o)}>
        {fields.map((field) => (
          <TranslationRow
            key={field.path}
            path={`${at}.texts.${field.path}`}
            label={field.label}
            original={field.value}
            media={field.media}
            value={translation?.texts[field.path] ?? ''}
            tag={tag}
            sourceTag={sourceTag}
            problem={problems[`${at}.texts.${field.path}`]}
            same={same.has(field.path)}
            onSame={CASE_SAMEABLE.test(field.path) || same.has(field.path) ? (on) => change((entry) => markSame(entry, [field.path], on)) : undefined}
            onChange={(value) =>
              change((entry) => {
                if (value === '') delete entry.texts[field.path];
                else entry.texts[field.path] = value;
              })
            }
          />
        ))}
      </Section>
    </section>
  );
}
