/** The profile, the typewriter's phrases, the about text and the contact details: a part each (a section's part with its heading and lead). */
import { Trash2 } from 'lucide-react';
import type { ContentDocument } from '../../content/document';
import { Group, TextField } from '../shared/draft/fields';
import { ImageField } from './image-field';
import { pruneUnused } from './media';
import { SectionWords } from './section-words';
import { focusLater, type Edit, type ListFormProps } from './list-form-parts';
import { moveItem, SortableList, useListKeys } from './sortable-list';
import type { Problems } from './validate';

export function ProfilePart({ document, problems, edit }: ListFormProps) {
  const { profile } = document;
  return (
    <Group title="Profile">
      <TextField
        path="profile.name"
        label="Name"
        value={profile.name}
        problem={problems['profile.name']}
        onChange={(v) => edit((d) => void (d.profile.name = v))}
      />
      <TextField
        path="profile.role"
        label="Role"
        hint="Your job title, e.g. Frontend Developer."
        value={profile.role}
        problem={problems['profile.role']}
        onChange={(v) => edit((d) => void (d.profile.role = v))}
      />
      <TextField
        path="profile.summary"
        label="Summary"
        hint="One or two sentences for search engines and link previews."
        multiline
        value={profile.summary}
        problem={problems['profile.summary']}
        onChange={(v) => edit((d) => void (d.profile.summary = v))}
      />
      <TextField
        path="profile.intro"
        label="Intro"
        hint="The paragraph below your name and the typewriter: who you are and what you build."
        multiline
        value={profile.intro}
        problem={problems['profile.intro']}
        onChange={(v) => edit((d) => void (d.profile.intro = v))}
      />
      <TextField
        path="profile.location.display"
        label="Location"
        hint="As shown, e.g. Hyderabad, India."
        value={profile.location.display}
        problem={problems['profile.location.display']}
        onChange={(v) => edit((d) => void (d.profile.location.display = v))}
      />
      <TextField
        path="profile.location.mapsQuery"
        label="Location for the map link"
        hint="What a maps search looks for."
        value={profile.location.mapsQuery}
        problem={problems['profile.location.mapsQuery']}
        onChange={(v) => edit((d) => void (d.profile.location.mapsQuery = v))}
      />
      <ImageField
        prune={pruneUnused}
        path="profile.photo"
        label="Photo"
        document={document}
        mediaId={profile.photo}
        problems={problems}
        edit={edit}
        onPoint={(d, id) => void (d.profile.photo = id)}
      />
    </Group>
  );
}

export function PhrasesPart({ document, problems, edit }: ListFormProps) {
  return (
    <Group title="Typewriter phrases">
      <p className="text-sm text-gray-400">The hero cycles through these, in order.</p>
      <StringList
        listPath="typewriterPhrases"
        items={document.typewriterPhrases}
        itemLabel={(i) => `Phrase ${i + 1}`}
        problems={problems}
        edit={edit}
        select={(d) => d.typewriterPhrases}
        addLabel="Add a phrase"
      />
    </Group>
  );
}

export function AboutPart({ document, problems, edit }: ListFormProps) {
  return (
    <Group title="About">
      <SectionWords name="about" document={document} problems={problems} edit={edit} />
      <StringList
        listPath="about.paragraphs"
        items={document.about.paragraphs}
        itemLabel={(i) => `Paragraph ${i + 1}`}
        problems={problems}
        edit={edit}
        select={(d) => d.about.paragraphs}
        addLabel="Add a paragraph"
        multiline
      />
    </Group>
  );
}

export function ContactPart({ document, problems, edit }: ListFormProps) {
  const { contact } = document;
  return (
    <Group title="Contact">
      <SectionWords name="contact" document={document} problems={problems} edit={edit} />
      <TextField
        path="contact.email"
        label="Email"
        type="email"
        value={contact.email}
        problem={problems['contact.email']}
        onChange={(v) => edit((d) => void (d.contact.email = v))}
      />
      <TextField
        path="contact.phone.display"
        label="Phone, as shown"
        hint="e.g. +91 90000 00000"
        type="tel"
        value={contact.phone.display}
        problem={problems['contact.phone.display']}
        onChange={(v) => edit((d) => void (d.contact.phone.display = v))}
      />
      <TextField
        path="contact.phone.dial"
        label="Phone, as dialled"
        hint="Digits only, with an optional leading +, e.g. +919000000000"
        type="tel"
        value={contact.phone.dial}
        problem={problems['contact.phone.dial']}
        onChange={(v) => edit((d) => void (d.contact.phone.dial = v))}
      />
      <TextField
        path="contact.responseTime"
        label="When you reply"
        hint="Shown to a visitor once their message is sent, e.g. I usually reply within a day or two."
        value={contact.responseTime}
        problem={problems['contact.responseTime']}
        onChange={(v) => edit((d) => void (d.contact.responseTime = v))}
      />
    </Group>
  );
}

/** A list of texts (phrases, paragraphs): each with its drag handle and an icon-only remove button, and an add button. */
function StringList({
  listPath,
  items,
  itemLabel,
  problems,
  edit,
  select,
  addLabel,
  multiline = false,
}: {
  listPath: string;
  items: string[];
  itemLabel: (index: number) => string;
  problems: Problems;
  edit: Edit;
  select: (draft: ContentDocument) => string[];
  addLabel: string;
  multiline?: boolean;
}) {
  const list = useListKeys(items.length);
  return (
    <div className="space-y-4">
      {problems[listPath] && <p className="field-error">{problems[listPath]}</p>}
      <SortableList
        keys={list.keys}
        name={(i) => itemLabel(i).toLowerCase()}
        className="space-y-3"
        onMove={(from, to) => {
          list.move(from, to);
          edit((d) => moveItem(select(d), from, to));
        }}
      >
        {(i, _key, handle) => (
          <div className="flex items-start gap-1">
            <div className="pt-7">{handle}</div>
            <div className="min-w-0 flex-1">
              <TextField
                path={`${listPath}[${i}]`}
                label={itemLabel(i)}
                multiline={multiline}
                value={items[i]!}
                problem={problems[`${listPath}[${i}]`]}
                onChange={(v) => edit((d) => void (select(d)[i] = v))}
              />
            </div>
            <div className="pt-7">
              <button
                type="button"
                className="btn btn-ghost size-11 shrink-0 p-0 text-red-300"
                aria-label={`Remove ${itemLabel(i).toLowerCase()}`}
                onClick={() => {
                  list.remove(i);
                  edit((d) => void select(d).splice(i, 1));
                }}
              >
                <Trash2 aria-hidden="true" className="size-5" />
              </button>
            </div>
          </div>
        )}
      </SortableList>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          list.append();
          edit((d) => void select(d).push(''));
          focusLater(`${listPath}[${items.length}]`);
        }}
      >
        {addLabel}
      </button>
    </div>
  );
}
