/** Experience and education: each entry, and its awards with their certificates. */
import type { TimelineEntry } from '../../content/document';
import { EditableList } from './editable-list';
import { Group, TextField } from '../shared/draft/fields';
import { ImageField } from './image-field';
import type { ListFormProps } from './list-form-parts';
import { pruneUnused } from './media';
import { SectionWords } from './section-words';

function Awards({ list, i, entry, document, problems, edit }: ListFormProps & { list: 'experience' | 'education'; i: number; entry: TimelineEntry }) {
  return (
    <div className="space-y-3">
      <EditableList
        path={`${list}[${i}].awards`}
        items={entry.awards}
        of={(d) => d[list][i]!.awards}
        problems={problems}
        edit={edit}
        level={4}
        prefix={(j) => `Award ${j + 1}`}
        label={(award) => award.title}
        name={(award, j) => `award ${award.title || j + 1}`}
        fields={(award, j, p) => (
          <>
            <TextField
              path={`${p}.title`}
              label="Award title"
              value={award.title}
              problem={problems[`${p}.title`]}
              onChange={(v) => edit((d) => void (d[list][i]!.awards[j]!.title = v))}
            />
            <ImageField
              prune={pruneUnused}
              path={`${p}.certificate`}
              label="Certificate"
              document={document}
              mediaId={award.certificate}
              problems={problems}
              edit={edit}
              onPoint={(d, id) => void (d[list][i]!.awards[j]!.certificate = id)}
            />
          </>
        )}
        add={<>Add an award to {entry.title || `entry ${i + 1}`}</>}
        create={(d) => ({
          title: '',
          certificate:
            [...d.experience, ...d.education].flatMap((e) => e.awards.map((a) => a.certificate))[0] ??
            d.media.find((m) => !m.id.startsWith('logo-'))?.id ??
            '',
        })}
        firstField="title"
        afterRemove={pruneUnused}
      />
    </div>
  );
}

export function TimelineForm({ list, document, problems, edit }: ListFormProps & { list: 'experience' | 'education' }) {
  const title = list === 'experience' ? 'Experience' : 'Education';
  const noun = list === 'experience' ? 'job' : 'school';
  return (
    <Group title={title}>
      {list === 'experience' && <SectionWords name="experience" document={document} problems={problems} edit={edit} />}
      <p className="text-sm text-gray-400">Newest first.</p>
      <EditableList
        path={list}
        items={document[list]}
        of={(d) => d[list]}
        problems={problems}
        edit={edit}
        prefix={(i) => `${title} ${i + 1}`}
        label={(entry) => entry.title}
        name={(entry, i) => `${noun} ${entry.title || i + 1}`}
        fields={(entry, i, p) => (
          <>
            <TextField
              path={`${p}.title`}
              label={list === 'experience' ? 'Job title' : 'Degree or course'}
              value={entry.title}
              problem={problems[`${p}.title`]}
              onChange={(v) => edit((d) => void (d[list][i]!.title = v))}
            />
            <TextField
              path={`${p}.place`}
              label={list === 'experience' ? 'Company' : 'School'}
              value={entry.place}
              problem={problems[`${p}.place`]}
              onChange={(v) => edit((d) => void (d[list][i]!.place = v))}
            />
            <TextField
              path={`${p}.date`}
              label="Dates"
              hint="As shown, e.g. 2021 - 2023"
              value={entry.date}
              problem={problems[`${p}.date`]}
              onChange={(v) => edit((d) => void (d[list][i]!.date = v))}
            />
            <TextField
              path={`${p}.description`}
              label="Description"
              multiline
              value={entry.description}
              problem={problems[`${p}.description`]}
              onChange={(v) => edit((d) => void (d[list][i]!.description = v))}
            />
            <Awards list={list} i={i} entry={entry} document={document} problems={problems} edit={edit} />
          </>
        )}
        add={`Add ${list === 'experience' ? 'a job' : 'a school'}`}
        create={() => ({ title: '', place: '', date: '', description: '', awards: [] })}
        firstField="title"
        afterRemove={pruneUnused}
      />
    </Group>
  );
}
