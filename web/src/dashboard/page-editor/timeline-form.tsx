/** Experience and education: each entry, and its awards with their certificates. */
import type { TimelineEntry } from '../../content/document';
import { fieldId, Group, TextField } from './fields';
import { ImageField } from './image-field';
import { focusLater, ListProblem, type ListFormProps } from './list-form-parts';
import { ListControls, moveItem } from './list-controls';
import { pruneUnused } from './media';

function Awards({ list, i, entry, document, problems, edit }: ListFormProps & { list: 'experience' | 'education'; i: number; entry: TimelineEntry }) {
  const base = `${list}[${i}].awards`;
  return (
    <div className="space-y-3">
      <ListProblem path={base} problems={problems} />
      <ol className="space-y-3">
        {entry.awards.map((award, j) => (
          <li key={j}>
            <Group level={4} id={fieldId(`${base}[${j}]`)} title={`Award ${j + 1}: ${award.title || 'untitled'}`}>
              <TextField
                path={`${base}[${j}].title`}
                label="Award title"
                value={award.title}
                problem={problems[`${base}[${j}].title`]}
                onChange={(v) => edit((d) => void (d[list][i]!.awards[j]!.title = v))}
              />
              <ImageField
                path={`${base}[${j}].certificate`}
                label="Certificate"
                document={document}
                mediaId={award.certificate}
                problems={problems}
                edit={edit}
                onPoint={(d, id) => void (d[list][i]!.awards[j]!.certificate = id)}
              />
              <ListControls
                listPath={base}
                index={j}
                count={entry.awards.length}
                name={`award ${award.title || j + 1}`}
                onMove={(to) => edit((d) => moveItem(d[list][i]!.awards, j, to))}
                onRemove={() => edit((d) => void (d[list][i]!.awards.splice(j, 1), pruneUnused(d)))}
              />
            </Group>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          edit((d) => {
            const certificate =
              [...d.experience, ...d.education].flatMap((e) => e.awards.map((a) => a.certificate))[0] ??
              d.media.find((m) => !m.id.startsWith('logo-'))?.id ??
              '';
            d[list][i]!.awards.push({ title: '', certificate });
          });
          focusLater(`${base}[${entry.awards.length}].title`);
        }}
      >
        Add an award to {entry.title || `entry ${i + 1}`}
      </button>
    </div>
  );
}

export function TimelineForm({ list, document, problems, edit }: ListFormProps & { list: 'experience' | 'education' }) {
  const title = list === 'experience' ? 'Experience' : 'Education';
  const noun = list === 'experience' ? 'job' : 'school';
  return (
    <Group title={title}>
      <p className="text-sm text-gray-400">Newest first.</p>
      <ListProblem path={list} problems={problems} />
      <ol className="space-y-4">
        {document[list].map((entry, i) => {
          const p = `${list}[${i}]`;
          return (
            <li key={i}>
              <Group level={3} id={fieldId(p)} title={`${title} ${i + 1}: ${entry.title || 'untitled'}`}>
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
                <ListControls
                  listPath={list}
                  index={i}
                  count={document[list].length}
                  name={`${noun} ${entry.title || i + 1}`}
                  onMove={(to) => edit((d) => moveItem(d[list], i, to))}
                  onRemove={() => edit((d) => void (d[list].splice(i, 1), pruneUnused(d)))}
                />
              </Group>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          edit((d) => void d[list].push({ title: '', place: '', date: '', description: '', awards: [] }));
          focusLater(`${list}[${document[list].length}].title`);
        }}
      >
        Add {list === 'experience' ? 'a job' : 'a school'}
      </button>
    </Group>
  );
}
