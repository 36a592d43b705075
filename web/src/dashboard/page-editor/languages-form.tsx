/**
 * The Languages part: the languages the page is published in besides the default one, each
 * translated side by side with the default texts (the document's fields, then the page's fixed
 * texts), published once nothing is missing.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import type { ContentDocument, Language, MediaItem } from '../../content/document';
import english from '../../i18n/en.json';
import { ConfirmDialog } from '../shared/draft/confirm-dialog';
import { CheckboxField, fieldId, Group } from '../shared/draft/fields';
import type { ListFormProps } from './list-form-parts';
import { sourceUrl } from './media';
import { defaultTag, languagesOf, markSame, missingTexts, SAMEABLE, textFields } from './translations';
import type { Problems } from './validate';

/** The string tables built into the page: the tags whose fixed texts need no filling in. */
const TABLES = import.meta.glob<Record<string, string>>(['../../i18n/*.json', '!../../i18n/en.json'], { import: 'default' });
const tableFile = (tag: string) => `../../i18n/${tag}.json`;

/** The built-in table for a tag (its own, else its primary language's), if there is one. */
function builtInFile(tag: string): string | undefined {
  const lower = tag.toLowerCase();
  return [lower, lower.split('-')[0]!].map(tableFile).find((file) => file in TABLES);
}

const BUILT_IN = Object.keys(TABLES).map((file) => file.slice('../../i18n/'.length, -'.json'.length));

// The same lists as the server's (`RTL_LANGUAGES`, `RTL_SCRIPTS` in content/src/language.rs); a test there compares them.
const RTL = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb']);
const RTL_SCRIPTS = /-(arab|hebr|thaa|syrc|nkoo|adlm|rohg)(-|$)/i;
export function directionOf(tag: string): 'ltr' | 'rtl' {
  return RTL.has(tag.toLowerCase().split('-')[0]!) || RTL_SCRIPTS.test(tag) ? 'rtl' : 'ltr';
}

/** A language's name in English, e.g. `German`; the tag itself when the browser does not know it. */
export function nameOf(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** The English fixed texts, one per key (a plural's `#other` form stands for it). */
const FIXED_KEYS = Object.keys(english).filter((key) => !key.includes('#') || key.endsWith('#other'));
const englishText = (key: string): string => english[key as keyof typeof english];

type Names = (key: string) => string;
type NamesModule = typeof import('./fixed-text-names');
/** The fixed texts' readable names (`fixed-text-names.ts`), loaded with this part; null until then. */
function useNames(): NamesModule | null {
  const [names, setNames] = useState<NamesModule | null>(null);
  useEffect(() => void import('./fixed-text-names').then(setNames), []);
  return names;
}

/** Focuses a field once the section that holds it is drawn open. */
const focusSoon = (id: string) => requestAnimationFrame(() => window.document.getElementById(id)?.focus());

/** Why `tag` cannot be added, or null. */
function tagProblem(tag: string, document: ContentDocument): string | null {
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(tag)) return 'Enter a language tag such as de, ar or pt-BR.';
  try {
    Intl.getCanonicalLocales(tag);
  } catch {
    return `${tag} is not a language tag. Enter one such as de, ar or pt-BR.`;
  }
  const lower = tag.toLowerCase();
  if (lower === defaultTag(document).toLowerCase()) return `${tag} is the page's default language already.`;
  if (languagesOf(document).some((l) => l.tag.toLowerCase() === lower)) return `${nameOf(tag)} is in the list already.`;
  if (languagesOf(document).length >= 10) return 'A page has at most 10 languages besides the default.';
  return null;
}

function AddLanguage({ document, edit }: Pick<ListFormProps, 'document' | 'edit'>) {
  const id = useId();
  const [tag, setTag] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // Inside the part's form, so not a form of its own: the button adds, and so does Enter in the field.
  const add = () => {
    const wanted = tag.trim();
    const why = tagProblem(wanted, document);
    setProblem(why);
    if (why) return;
    const [canonical] = Intl.getCanonicalLocales(wanted);
    edit((d) => void (d.languages ??= []).push({ tag: canonical!, published: false, texts: {}, strings: {} }));
    setTag('');
    requestAnimationFrame(() => window.document.getElementById(`language-${canonical}-heading`)?.focus());
  };
  return (
    <div className="grid gap-2">
      <label htmlFor={`${id}-tag`} className="field-label">
        Add a language
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={`${id}-tag`}
          className="field-input max-w-60"
          list={`${id}-suggestions`}
          value={tag}
          autoComplete="off"
          placeholder="de, ar, pt-BR …"
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
          onChange={(event) => setTag(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            add();
          }}
        />
        <button type="button" className="btn btn-secondary" onClick={add}>
          Add language
        </button>
      </div>
      <datalist id={`${id}-suggestions`}>
        {BUILT_IN.map((builtIn) => (
          <option key={builtIn} value={builtIn}>
            {nameOf(builtIn)}
          </option>
        ))}
      </datalist>
      <p id={`${id}-hint`} className="text-sm text-gray-400">
        Any language tag. {BUILT_IN.map(nameOf).join(', ')} come with the page&apos;s fixed texts (navigation, buttons, form
        messages) translated; for any other language you fill those in too.
      </p>
      {problem && (
        <p id={`${id}-error`} role="alert" className="field-error">
          {problem}
        </p>
      )}
    </div>
  );
}

/** A field's translation beside its text in the default language. */
export function TranslationRow({
  path,
  label,
  original,
  value,
  tag,
  sourceTag,
  problem,
  placeholder,
  media,
  same,
  onSame,
  onChange,
}: {
  path: string;
  label: string;
  original: string;
  value: string;
  tag: string;
  sourceTag: string;
  problem: string | undefined;
  placeholder?: string;
  media?: MediaItem;
  /** Whether the text is marked the same as the default language's; undefined where it cannot be. */
  same?: boolean;
  onSame?: (same: boolean) => void;
  onChange: (value: string) => void;
}) {
  const id = fieldId(path);
  const thumbnail = media?.sources[0] && sourceUrl(media.sources[0].src);
  const long = original.length > 80;
  const common = {
    id,
    value,
    lang: tag,
    dir: directionOf(tag),
    placeholder,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': `${id}-original${problem ? ` ${id}-error` : ''}`,
    className: 'field-input',
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
  };
  return (
    <div className="grid gap-2 border-t border-gray-800 pt-3 md:grid-cols-2 md:gap-4">
      <div className="flex gap-3">
        {thumbnail && (
          <img src={thumbnail} alt="" width={media.width} height={media.height} className="h-14 w-auto max-w-24 shrink-0 rounded object-contain" />
        )}
        <div className="min-w-0">
          <p className="field-label">{label}</p>
          <p id={`${id}-original`} lang={sourceTag} dir={directionOf(sourceTag)} className="text-sm whitespace-pre-line text-gray-300">
            {original}
          </p>
        </div>
      </div>
      <div>
        {same ? null : (
          <>
            <label htmlFor={id} className="field-label">
              {label}, in {nameOf(tag)}
            </label>
            {long ? <textarea {...common} rows={4} /> : <input {...common} autoComplete="off" />}
          </>
        )}
        {onSame && (
          <label className="flex min-h-11 items-center gap-3 text-sm text-gray-200">
            <input id={`${id}-same`} type="checkbox" checked={same} onChange={(event) => onSame(event.target.checked)} className="size-5 accent-blue-600" />
            <span>
              <span className="sr-only">{label}: </span>Same as in {nameOf(sourceTag)}
            </span>
          </label>
        )}
        {problem && (
          <p id={`${id}-error`} className="field-error">
            {label}: {problem}
          </p>
        )}
      </div>
    </div>
  );
}

/** A disclosure: a heading button that shows and hides what follows. */
export function Section({
  id,
  title,
  children,
  open,
  onToggle,
  level: Heading = 'h4',
}: {
  id: string;
  title: string;
  children: ReactNode;
  open: boolean;
  onToggle: () => void;
  level?: 'h3' | 'h4';
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="mt-4">
      <Heading id={`${id}-title`}>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id}
          onClick={onToggle}
          className="flex min-h-11 w-full items-center gap-2 rounded-lg px-2 text-start font-semibold text-white hover:bg-gray-800"
        >
          <ChevronDown aria-hidden="true" className={`size-4 shrink-0 transition-transform ${open ? '' : '-rotate-90'}`} />
          {title}
        </button>
      </Heading>
      <div id={id} hidden={!open} className="mt-2 grid gap-3">
        {open && children}
      </div>
    </section>
  );
}

/** What a language still lacks before `until`: a count, and a button per text that moves focus to its field. */
export function MissingList({ name, until, entries }: { name: string; until: string; entries: { id: string; label: string; reveal: () => void }[] }) {
  const [all, setAll] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  if (entries.length === 0) return <p className="text-sm text-emerald-300">Every text is translated.</p>;
  const shown = all ? entries : entries.slice(0, 6);
  return (
    <div className="text-sm text-amber-200">
      <p>
        {entries.length === 1 ? 'One text is' : `${entries.length} texts are`} missing before {until}:
      </p>
      <ul ref={list} className="mt-1 flex flex-wrap gap-x-3" aria-label={`Missing in ${name}`}>
        {shown.map((entry) => (
          <li key={entry.id}>
            <button
              type="button"
              className="min-h-8 underline underline-offset-2 hover:text-white"
              onClick={() => {
                entry.reveal();
                focusSoon(entry.id);
              }}
            >
              {entry.label}
            </button>
          </li>
        ))}
        {shown.length < entries.length && (
          <li>
            <button
              type="button"
              className="min-h-8 font-semibold hover:text-white"
              onClick={() => {
                setAll(true);
                // Focus stays in the list: on the first entry the button showed.
                requestAnimationFrame(() => list.current?.querySelectorAll('button')[shown.length]?.focus());
              }}
            >
              Show all {entries.length}
            </button>
          </li>
        )}
      </ul>
    </div>
  );
}

function LanguageItem({
  document,
  language,
  index,
  problems,
  edit,
  names,
}: ListFormProps & { language: Language; index: number; problems: Problems; names: Names | null }) {
  const at = `languages[${index}]`;
  const tag = language.tag;
  const sourceTag = defaultTag(document);
  const fields = textFields(document);
  const missing = missingTexts(document, language);
  const file = builtInFile(tag);
  const [table, setTable] = useState<Record<string, string> | null>(null);
  useEffect(() => {
    let live = true;
    void (file ? TABLES[file]!() : Promise.resolve({})).then((loaded) => live && setTable(loaded));
    return () => {
      live = false;
    };
  }, [file]);
  const missingFixed = file ? [] : FIXED_KEYS.filter((key) => !language.strings[key]?.trim());
  const problemsHere = Object.keys(problems).filter((path) => path.startsWith(`${at}.`)).length;
  const [openTexts, setOpenTexts] = useState(missing.length > 0 || problemsHere > 0);
  const [openFixed, setOpenFixed] = useState(!file);
  const [removing, setRemoving] = useState(false);
  const change = (update: (entry: Language) => void) =>
    edit((d) => {
      const entry = languagesOf(d)[index];
      if (entry) update(entry);
    });
  const name = nameOf(tag);
  const sourceName = nameOf(sourceTag);
  const path = `/${tag.toLowerCase()}/`;
  const same = new Set(language.same);
  const sameable = fields.filter((field) => SAMEABLE.test(field.path)).map((field) => field.path);
  const missingEntries = [
    ...missing.map((field) => ({ id: fieldId(`${at}.texts.${field.path}`), label: field.label, reveal: () => setOpenTexts(true) })),
    ...(names
      ? missingFixed.map((key) => ({ id: fieldId(`${at}.strings.${key}`), label: names(key), reveal: () => setOpenFixed(true) }))
      : []),
  ];
  return (
    <section aria-labelledby={`language-${tag}-heading`} className="rounded-lg border border-gray-800 p-4" id={fieldId(at)}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h3 id={`language-${tag}-heading`} tabIndex={-1} className="flex-1 text-lg font-semibold text-white">
          {name} ({tag})
        </h3>
        <button type="button" className="btn btn-ghost px-3 text-red-300" onClick={() => setRemoving(true)}>
          Remove {name}
        </button>
      </div>
      <CheckboxField
        path={`${at}.published`}
        label={`Publish ${name} at ${path}`}
        checked={language.published}
        onChange={(checked) => change((entry) => void (entry.published = checked))}
      />
      <MissingList name={name} until={`${name} can be published`} entries={missingEntries} />
      {sameable.length > 0 && (
        <div className="mt-3">
          <button type="button" className="btn btn-secondary" aria-describedby={`${fieldId(at)}-same-hint`} onClick={() => change((entry) => markSame(entry, sameable, true))}>
            Use the {sourceName} dates, names and places
          </button>
          <p id={`${fieldId(at)}-same-hint`} className="mt-1.5 text-sm text-gray-400">
            The dates, the places and the projects&apos; names are shown as in {sourceName}, and follow them when they change. Untick any
            of them below to translate it.
          </p>
        </div>
      )}
      <Section id={`${fieldId(at)}-texts`} title={`Translate the page into ${name}`} open={openTexts} onToggle={() => setOpenTexts((o) => !o)}>
        {fields.map((field) => (
          <TranslationRow
            key={field.path}
            path={`${at}.texts.${field.path}`}
            label={field.label}
            original={field.value}
            media={field.media}
            value={language.texts[field.path] ?? ''}
            tag={tag}
            sourceTag={sourceTag}
            problem={problems[`${at}.texts.${field.path}`]}
            same={same.has(field.path)}
            onSame={SAMEABLE.test(field.path) || same.has(field.path) ? (on) => change((entry) => markSame(entry, [field.path], on)) : undefined}
            onChange={(value) =>
              change((entry) => {
                if (value === '') delete entry.texts[field.path];
                else entry.texts[field.path] = value;
              })
            }
          />
        ))}
      </Section>
      <Section
        id={`${fieldId(at)}-fixed`}
        title={file ? `Fixed texts in ${name} (built in; change any)` : `Fixed texts in ${name} (fill in each)`}
        open={openFixed && names !== null}
        onToggle={() => setOpenFixed((o) => !o)}
      >
        {names &&
          FIXED_KEYS.map((key) => (
            <TranslationRow
              key={key}
              path={`${at}.strings.${key}`}
              label={names(key)}
              original={englishText(key)}
              value={language.strings[key] ?? ''}
              placeholder={table?.[key]}
              tag={tag}
              sourceTag="en"
              problem={problems[`${at}.strings.${key}`]}
              onChange={(value) =>
                change((entry) => {
                  if (value === '') delete entry.strings[key];
                  else entry.strings[key] = value;
                })
              }
            />
          ))}
      </Section>
      <ConfirmDialog
        open={removing}
        title={`Remove ${name}?`}
        confirmLabel={`Remove ${name}`}
        onConfirm={() =>
          edit((d) => {
            languagesOf(d).splice(index, 1);
          })
        }
        onClose={() => setRemoving(false)}
      >
        <p>Its translations go with it. Once you publish, {path} is no longer served.</p>
      </ConfirmDialog>
    </section>
  );
}

/** One of the default language's fixed texts: what the page says now, changed in place (the built-in text again when it is the same). */
function FixedTextRow({
  path,
  name,
  value,
  builtIn,
  problem,
  tag,
  onChange,
}: {
  path: string;
  name: string;
  value: string | undefined;
  builtIn: string;
  problem: string | undefined;
  tag: string;
  onChange: (value: string) => void;
}) {
  const [typed, setTyped] = useState<string | null>(null);
  const id = fieldId(path);
  const common = {
    id,
    lang: tag,
    dir: directionOf(tag),
    value: typed ?? value ?? builtIn,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? `${id}-error` : undefined,
    className: 'field-input',
    onBlur: () => setTyped(null),
    onChange: (event: { target: { value: string } }) => {
      setTyped(event.target.value);
      onChange(event.target.value);
    },
  };
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {name}
      </label>
      {builtIn.length > 80 ? <textarea {...common} rows={3} /> : <input {...common} autoComplete="off" />}
      {problem && (
        <p id={`${id}-error`} className="field-error">
          {name}: {problem}
        </p>
      )}
    </div>
  );
}

/** The default language's fixed texts, each over its built-in text, shown a part of the page at a time. */
function DefaultFixedTexts({ document, problems, edit, names: { fixedTextName: names, placeOf } }: ListFormProps & { names: NamesModule }) {
  const tag = defaultTag(document);
  // Open on the first problem's part of the page, if there is one.
  const problem = Object.keys(problems).find((path) => path.startsWith('strings.'));
  const [open, setOpen] = useState(!!problem);
  const [place, setPlace] = useState(problem ? placeOf(problem.slice(8)) : null);
  const keys = Object.keys(english);
  const file = builtInFile(tag);
  const [table, setTable] = useState<Record<string, string>>(english);
  useEffect(() => void (file ? TABLES[file]!() : Promise.resolve(tag === 'en' ? english : {})).then(setTable), [file, tag]);
  return (
    <Section level="h3" id="fixed-texts-default" title={`Fixed texts in ${nameOf(tag)}: navigation, buttons, form messages`} open={open} onToggle={() => setOpen((o) => !o)}>
      <p className="text-sm text-gray-400">Choose a part of the page, and change any of its texts: the page at / says what you write here.</p>
      <div role="group" aria-label="Part of the page" className="flex flex-wrap gap-2">
        {[...new Set(keys.map(placeOf))].map((each) => (
          <button key={each} type="button" aria-pressed={each === place} className="btn btn-secondary px-3" onClick={() => setPlace(each)}>
            {each}
          </button>
        ))}
      </div>
      {keys.filter((key) => placeOf(key) === place).map((key) => (
        <FixedTextRow
          key={key}
          path={`strings.${key}`}
          name={names(key)}
          value={document.strings?.[key]}
          builtIn={table[key] ?? ''}
          tag={tag}
          problem={problems[`strings.${key}`]}
          onChange={(value) =>
            edit((d) => {
              const strings = (d.strings ??= {});
              if (value === (table[key] ?? '')) delete strings[key];
              else strings[key] = value;
              if (Object.keys(strings).length === 0) delete d.strings;
            })
          }
        />
      ))}
    </Section>
  );
}

export function LanguagesPart({ document, problems, edit }: ListFormProps) {
  const languages = languagesOf(document);
  const tag = defaultTag(document);
  const names = useNames();
  return (
    <Group title="Languages">
      <p className="text-sm text-gray-300">
        The page is in {nameOf(tag)} ({tag}) at <code>/</code>. Each language you add and publish gets a page of its own, at{' '}
        <code>/de/</code> for German and so on, pre-rendered like <code>/</code>, with a link to it in the navigation. Visitors whose
        browser prefers it are offered it, never sent there.
      </p>
      {names && <DefaultFixedTexts document={document} problems={problems} edit={edit} names={names} />}
      <AddLanguage document={document} edit={edit} />
      {languages.map((language, index) => (
        <LanguageItem
          key={language.tag}
          document={document}
          language={language}
          index={index}
          problems={problems}
          edit={edit}
          names={names?.fixedTextName ?? null}
        />
      ))}
    </Group>
  );
}
