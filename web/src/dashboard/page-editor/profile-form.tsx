/** The profile, the typewriter's phrases, the about text and the contact details. */
import type { ContentDocument } from '../../content/document';
import { Group, TextField } from './fields';
import { ImageField } from './image-field';
import { ListControls, moveItem } from './list-controls';
import type { Problems } from './validate';

type Edit = (change: (draft: ContentDocument) => void) => void;

export function ProfileForm({ document, problems, edit }: { document: ContentDocument; problems: Problems; edit: Edit }) {
  const { profile, contact } = document;
  return (
    <>
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
          path="profile.photo"
          label="Photo"
          document={document}
          mediaId={profile.photo}
          problems={problems}
          edit={edit}
          onPoint={(d, id) => void (d.profile.photo = id)}
        />
      </Group>

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

      <Group title="About">
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

      <Group title="Contact">
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
      </Group>
    </>
  );
}

/** A list of texts (phrases, paragraphs) with add, reorder and remove. */
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
  return (
    <div className="space-y-4">
      {problems[listPath] && <p className="field-error">{problems[listPath]}</p>}
      <ol className="space-y-4">
        {items.map((item, i) => (
          <li key={i} className="space-y-2">
            <TextField
              path={`${listPath}[${i}]`}
              label={itemLabel(i)}
              multiline={multiline}
              value={item}
              problem={problems[`${listPath}[${i}]`]}
              onChange={(v) => edit((d) => void (select(d)[i] = v))}
            />
            <ListControls
              listPath={listPath}
              index={i}
              count={items.length}
              name={itemLabel(i).toLowerCase()}
              onMove={(to) => edit((d) => moveItem(select(d), i, to))}
              onRemove={() => edit((d) => void select(d).splice(i, 1))}
            />
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-secondary" onClick={() => edit((d) => void select(d).push(''))}>
        {addLabel}
      </button>
    </div>
  );
}
