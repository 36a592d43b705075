import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Copy, Download, Plus } from 'lucide-react';
import { ApiError } from '../../api/client';
import { sentence } from '../../api/problems';
import { sessionEnded } from '../shared/session';
import {
  changeLink,
  createLink,
  deleteLink,
  linkDetail,
  listLinks,
  LINKS_EXPORT_URL,
  type ApplicationLink,
  type LinkAlerts,
  type LinkDetail,
  type LinkState,
} from '../../api/links';
import { useContent } from '../../content/context';
// A link's own resume: a chunk of its own, fetched when a link's details open.
const LinkResume = lazy(() => import('./link-resume'));
// The follow-ups due: a chunk of its own, fetched with the tab.
const FollowUps = lazy(() => import('./follow-ups'));
// The weekly digest's settings: another, below the pipeline.
const WeeklyDigest = lazy(() => import('./weekly-digest'));
import { useLocale } from '../../i18n/locale';
import { caseStudiesRead, caseStudyLabel, fullDate, postLabel, postsRead, shortDate } from '../shared/format';

export const STATE_LABEL: Record<LinkState, string> = {
  sent: 'Sent',
  opened: 'Opened',
  engaged: 'Engaged',
  wrote: 'Wrote',
};

const STATE_CLASS: Record<LinkState, string> = {
  sent: 'border-gray-600 text-gray-300',
  opened: 'border-blue-400/60 text-blue-200',
  engaged: 'border-amber-400/60 text-amber-200',
  wrote: 'border-emerald-400/60 text-emerald-200',
};

const ALERTS: { key: keyof LinkAlerts; label: string }[] = [
  { key: 'open', label: 'First open' },
  { key: 'resume', label: 'Resume downloaded' },
  { key: 'message', label: 'Message sent' },
];

const SECTION_LABEL: Record<string, string> = {
  home: 'Top',
  about: 'About',
  skills: 'Skills',
  projects: 'Projects',
  experience: 'Experience',
  contact: 'Contact',
};

/** The address to send, in full. */
export function linkUrl(link: ApplicationLink): string {
  return `${location.origin}${link.path}`;
}

/** A language's name in the owner's language ("English" for `en`); the tag when it has none. */
function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(undefined, { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** Whether a link no longer counts anything: revoked, or past its expiry. */
export function linkEnded(link: ApplicationLink, now = Date.now()): string | null {
  if (link.revokedAt !== null) return 'Revoked';
  if (link.expiresAt !== null && link.expiresAt <= now) return 'Expired';
  return null;
}

/** The owner's applications: a link per application, where each stands, and what its visitors did. */
export function ApplicationsView() {
  const [links, setLinks] = useState<ApplicationLink[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApplicationLink | null>(null);
  // The form is open while there is no link; folded behind its button once there are.
  const [adding, setAdding] = useState(false);
  const formId = useId();

  const fail = useCallback((cause: unknown) => {
    if (cause instanceof DOMException && cause.name === 'AbortError') return;
    if (!sessionEnded(cause)) setError(cause instanceof Error ? cause.message : String(cause));
  }, []);
  const reload = useCallback(
    (signal?: AbortSignal) =>
      listLinks(signal).then((next) => {
        setLinks(next);
        setError(null);
      }, fail),
    [fail],
  );
  useEffect(() => {
    const controller = new AbortController();
    void reload(controller.signal);
    return () => controller.abort();
  }, [reload]);

  return (
    <div className="container-page py-6 md:py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-heading font-bold text-white">Applications</h1>
        <a className="btn btn-secondary min-h-11 px-3 text-sm" href={LINKS_EXPORT_URL} download>
          <Download aria-hidden="true" className="size-4" />
          Download links as CSV
        </a>
      </div>
      <p className="mt-2 max-w-2xl text-sm text-gray-300">
        A link per application shows whether it was opened and what its readers looked at. Only counts per link and day
        are kept: no cookie, no address, nothing about who the visitor is.
      </p>
      {error && (
        <p role="alert" className="mt-4 rounded-lg border border-red-400/40 bg-red-950 px-4 py-3 text-red-100">
          {error}
        </p>
      )}
      {links?.length !== 0 && (
        <button
          type="button"
          className="btn btn-primary mt-6 min-h-11"
          aria-expanded={adding}
          aria-controls={formId}
          disabled={links === null}
          onClick={() => setAdding(!adding)}
        >
          <Plus aria-hidden="true" className="size-4" />
          New link
        </button>
      )}
      {(adding || links?.length === 0) && (
        <NewLinkForm
          id={formId}
          onCreated={(link) => {
            setCreated(link);
            setAdding(false);
            void reload();
          }}
        />
      )}
      {created && (
        <div role="status" className="mt-4 rounded-xl border border-emerald-400/40 bg-emerald-950 p-4 text-emerald-100">
          <p>
            The link for {created.company}, {created.role} is ready:
          </p>
          <CopyLink link={created} />
        </div>
      )}
      <Suspense fallback={null}>
        <FollowUps onChanged={() => void reload()} />
      </Suspense>
      <section aria-labelledby="pipeline-title" className="mt-8">
        <h2 id="pipeline-title" className="text-lg font-semibold text-white">
          Pipeline
        </h2>
        {links === null ? (
          <p className="mt-2 text-sm text-gray-300">Loading…</p>
        ) : links.length === 0 ? (
          <p className="mt-2 text-sm text-gray-300">No links yet. Create one for your next application.</p>
        ) : (
          <ul className="mt-3 grid gap-3" aria-label="Application links">
            {links.map((link) => (
              <LinkItem key={link.id} link={link} onChanged={() => void reload()} onError={fail} />
            ))}
          </ul>
        )}
      </section>
      <Suspense fallback={null}>
        <WeeklyDigest />
      </Suspense>
    </div>
  );
}

function CopyLink({ link }: { link: ApplicationLink }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const url = linkUrl(link);
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2">
      <code className="rounded bg-gray-950 px-2 py-1 text-sm break-all text-gray-100">{url}</code>
      <button
        type="button"
        className="btn btn-secondary min-h-11 px-3 text-sm"
        aria-label={`Copy the link for ${link.company}, ${link.role}`}
        onClick={() =>
          void navigator.clipboard.writeText(url).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        <Copy aria-hidden="true" className="size-4" />
        Copy
      </button>
      <span role="status" className="text-sm">
        {copied === true ? 'Copied.' : copied === false ? 'Could not copy: select the address and copy it.' : ''}
      </span>
    </div>
  );
}

function NewLinkForm({ id, onCreated }: { id: string; onCreated: (link: ApplicationLink) => void }) {
  const document = useContent();
  const locale = useLocale();
  const languages = locale.languages.length > 0 ? locale.languages : [{ tag: document.language ?? 'en', name: 'English' }];
  const [fields, setFields] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState('');
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // Each problem is beside its field; the first of them is focused, so its label and problem are read out.
  useEffect(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), [fields]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const expires = text('expires');
    const days = text('followUpDays');
    // A number input holds what the browser could read: a fraction is the one mistake left to name here.
    if (days !== '' && !Number.isInteger(Number(days))) {
      setFields({ followUpDays: 'Enter a whole number of days from 1 to 60.' });
      return;
    }
    setBusy(true);
    setFields({});
    setAlert('');
    try {
      const link = await createLink({
        company: text('company'),
        role: text('role'),
        note: text('note'),
        language: text('language') || undefined,
        // The end of the chosen day, in the owner's time zone.
        expiresAt: expires ? new Date(`${expires}T23:59:59`).getTime() : null,
        alerts: Object.fromEntries(ALERTS.map(({ key }) => [key, data.get(`alert-${key}`) === 'on'])),
        recipientEmail: text('recipientEmail') || undefined,
        followUpDays: days === '' ? undefined : Number(days),
      });
      form.reset();
      onCreated(link);
    } catch (cause) {
      if (sessionEnded(cause)) return;
      if (cause instanceof ApiError && cause.status === 422 && Object.keys(cause.fields).length > 0) {
        setFields(Object.fromEntries(Object.entries(cause.fields).map(([name, problem]) => [name === 'expiresAt' ? 'expires' : name, sentence(name, problem)])));
      } else setAlert(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(false);
    }
  }

  const field = (name: string, label: string, input: (props: { id: string; name: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode) => {
    const inputId = `${id}-${name}`;
    const problem = fields[name];
    return (
      <div className="grid gap-1">
        <label htmlFor={inputId} className="text-sm font-medium text-gray-200">
          {label}
        </label>
        {input({ id: inputId, name, 'aria-invalid': Boolean(problem), 'aria-describedby': problem ? `${inputId}-error` : undefined })}
        {problem && (
          <p id={`${inputId}-error`} className="text-sm text-red-300">
            {problem}
          </p>
        )}
      </div>
    );
  };

  return (
    <form ref={formRef} id={id} aria-labelledby={`${id}-title`} className="mt-4 rounded-xl border border-gray-800 bg-gray-900 p-4" onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        New link
      </h2>
      {alert && (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {alert}
        </p>
      )}
      <div className="mt-3 grid gap-4 md:grid-cols-2">
        {field('company', 'Company', (props) => <input {...props} required maxLength={100} className="field-input" autoComplete="organization" />)}
        {field('role', 'Role', (props) => <input {...props} required maxLength={100} className="field-input" autoComplete="organization-title" />)}
        {field('language', 'Language of the page', (props) => (
          <select {...props} className="field-input">
            {languages.map((language) => (
              <option key={language.tag} value={language.tag}>
                {language.name} ({language.tag})
              </option>
            ))}
          </select>
        ))}
        {field('expires', 'Expires (optional)', (props) => <input {...props} type="date" className="field-input" />)}
        {field('recipientEmail', "Recipient's e-mail (optional, for a follow-up)", (props) => (
          <input {...props} type="email" maxLength={254} spellCheck={false} autoComplete="off" className="field-input" />
        ))}
        {field('followUpDays', 'Follow up after (days, once opened)', (props) => (
          <input {...props} type="number" inputMode="numeric" min={1} max={60} step={1} defaultValue={5} className="field-input" />
        ))}
        <div className="md:col-span-2">
          {field('note', 'Note (only you see it)', (props) => <textarea {...props} maxLength={1000} rows={2} className="field-input" />)}
        </div>
        <fieldset className="md:col-span-2">
          <legend className="text-sm font-medium text-gray-200">Alert me by e-mail and webhooks on</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {ALERTS.map(({ key, label }) => (
              <label key={key} className="flex min-h-11 items-center gap-2 text-sm text-gray-200">
                <input type="checkbox" name={`alert-${key}`} defaultChecked className="size-4" />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      <button type="submit" className="btn btn-primary mt-4 min-h-11" disabled={busy}>
        {busy ? 'Creating…' : 'Create link'}
      </button>
    </form>
  );
}

/** What a link's readers opened (its case studies, its posts), each with how often; `none` while nothing was. */
function ReadList({ title, none, items }: { title: string; none: string; items: { key: string; label: string; count: number }[] }) {
  return (
    <div>
      <h4 className="text-sm font-semibold text-white">{title}</h4>
      {items.length === 0 ? (
        <p className="text-sm text-gray-300">{none}</p>
      ) : (
        <ul className="mt-1 flex flex-wrap gap-2 text-sm text-gray-200" aria-label={title}>
          {items.map(({ key, label, count }) => (
            <li key={key} className="rounded-md border border-gray-700 px-2 py-1">
              {label}: {count}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function LinkItem({ link, onChanged, onError }: { link: ApplicationLink; onChanged: () => void; onError: (cause: unknown) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [detail, setDetail] = useState<LinkDetail | null>(null);
  const [confirming, setConfirming] = useState(false);
  const ended = linkEnded(link);
  const language = languageName(link.language);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    linkDetail(link.id, controller.signal).then(setDetail, onError);
    return () => controller.abort();
  }, [open, link, onError]);

  const change = (next: Parameters<typeof changeLink>[1]) => changeLink(link.id, next).then(onChanged, onError);
  const { totals } = link;
  const title = `${link.company}, ${link.role}`;
  const fu = link.followUp;
  // What became of its follow-up, in a sentence.
  const followUp =
    fu &&
    (fu.state === 'sent'
      ? `Follow-up sent to ${fu.sentTo} ${fullDate(fu.at)}${fu.delivery?.status === 'sent' ? ', delivered' : fu.delivery?.status === 'failed' ? ', but it could not be delivered' : ''}.`
      : fu.state === 'snoozed'
        ? `Follow-up snoozed until ${fullDate(fu.snoozedUntil ?? fu.at)}.`
        : `Follow-up dismissed ${fullDate(fu.at)}.`);
  return (
    <li className="rounded-xl border border-gray-800 bg-gray-900 p-4" aria-labelledby={`${id}-title`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id={`${id}-title`} className="font-semibold text-white">
            {title}
          </h3>
          <p className="text-sm text-gray-300">
            {link.lastActivityAt === null ? `Created ${shortDate(link.createdAt)}` : `Last activity ${shortDate(link.lastActivityAt)}`}
            {ended && ` · ${ended}`}
          </p>
          <p className="text-sm text-gray-300">
            {language} · {link.expiresAt === null ? 'No expiry' : `${ended === 'Expired' ? 'Expired' : 'Expires'} ${shortDate(link.expiresAt)}`}
          </p>
        </div>
        <span className={`rounded-full border px-3 py-1 text-sm font-medium ${STATE_CLASS[link.state]}`}>{STATE_LABEL[link.state]}</span>
      </div>
      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm text-gray-200">
        {[
          ['Opens', totals.opens],
          ['Visitors', totals.visitors],
          ['Project links', totals.projectClicks],
          ['Resume downloads', totals.resumeDownloads],
          ['Messages', totals.messages],
        ].map(([label, value]) => (
          <div key={label} className="flex gap-1">
            <dt className="text-gray-300">{label}:</dt>
            <dd className="font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      {totals.caseStudies.length > 0 && <p className="mt-2 text-sm text-gray-200">{caseStudiesRead(totals.caseStudies)}</p>}
      {totals.posts.length > 0 && <p className="mt-2 text-sm text-gray-200">{postsRead(totals.posts)}</p>}
      <CopyLink link={link} />
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-secondary min-h-11 px-3 text-sm"
          aria-expanded={open}
          aria-controls={`${id}-detail`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide details' : 'Details'}
        </button>
        {link.revokedAt === null ? (
          <button type="button" className="btn btn-secondary min-h-11 px-3 text-sm" onClick={() => void change({ revoked: true })}>
            Revoke
          </button>
        ) : (
          <button type="button" className="btn btn-secondary min-h-11 px-3 text-sm" onClick={() => void change({ revoked: false })}>
            Restore
          </button>
        )}
        {confirming ? (
          <>
            <button
              type="button"
              className="btn min-h-11 bg-red-700 px-3 text-sm text-white hover:bg-red-600"
              onClick={() => void deleteLink(link.id).then(onChanged, onError)}
            >
              Delete for good
            </button>
            <button type="button" className="btn btn-secondary min-h-11 px-3 text-sm" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" className="btn btn-secondary min-h-11 px-3 text-sm" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
      {open && (
        <div id={`${id}-detail`} className="mt-4 grid gap-4">
          {link.note && <p className="text-sm text-gray-200">Note: {link.note}</p>}
          <p className="text-sm text-gray-300">
            {link.recipientEmail === null ? (
              <>No recipient's e-mail: a follow-up has no one to go to.</>
            ) : (
              <>
                Sent to <bdi dir="ltr">{link.recipientEmail}</bdi>.
              </>
            )}{' '}
            A follow-up comes up {link.followUpDays === 1 ? '1 day' : `${link.followUpDays} days`} after the first open, with no message through it.
            {followUp && ` ${followUp}`}
          </p>
          <p className="text-sm text-gray-300">
            {link.firstOpenedAt === null ? 'Not opened yet.' : `First opened ${fullDate(link.firstOpenedAt)}.`}{' '}
            {link.lastActivityAt !== null && `Last activity ${fullDate(link.lastActivityAt)}.`}
          </p>
          <fieldset>
            <legend className="text-sm font-medium text-gray-200">Alerts</legend>
            <div className="mt-1 flex flex-wrap gap-4">
              {ALERTS.map(({ key, label }) => (
                <label key={key} className="flex min-h-11 items-center gap-2 text-sm text-gray-200">
                  <input
                    type="checkbox"
                    checked={link.alerts[key]}
                    onChange={(event) => void change({ alerts: { [key]: event.target.checked } })}
                    className="size-4"
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <Suspense fallback={null}>
            <LinkResume link={link} change={change} />
          </Suspense>
          <div>
            <h4 className="text-sm font-semibold text-white">How far they got</h4>
            {Object.keys(totals.sections).length === 0 ? (
              <p className="text-sm text-gray-300">No section seen yet.</p>
            ) : (
              <ul className="mt-1 flex flex-wrap gap-2 text-sm text-gray-200" aria-label="Sections seen">
                {Object.entries(totals.sections).map(([section, count]) => (
                  <li key={section} className="rounded-md border border-gray-700 px-2 py-1">
                    {SECTION_LABEL[section] ?? section}: {count}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <ReadList
            title="Case studies read"
            none="No case study opened yet."
            items={totals.caseStudies.map((count) => ({ key: count.project, label: caseStudyLabel(count), count: count.count }))}
          />
          <ReadList
            title="Posts read"
            none="No post read yet."
            items={totals.posts.map((count) => ({ key: count.post, label: postLabel(count), count: count.count }))}
          />
          {detail && detail.days.length > 0 && (
            <div className="overflow-auto rounded-xl border border-gray-800" tabIndex={0} role="region" aria-label={`Daily figures for ${title}`}>
              <table className="w-full text-left text-sm text-gray-200">
                <thead className="bg-gray-900 text-gray-300">
                  <tr>
                    <th scope="col" className="px-3 py-2">Day</th>
                    <th scope="col" className="px-3 py-2 text-right">Opens</th>
                    <th scope="col" className="px-3 py-2 text-right">Visitors</th>
                    <th scope="col" className="px-3 py-2 text-right">Project links</th>
                    <th scope="col" className="px-3 py-2 text-right">Resume downloads</th>
                    <th scope="col" className="px-3 py-2 text-right">Messages</th>
                  </tr>
                </thead>
                <tbody>
                  {detail.days.map((day) => (
                    <tr key={day.day} className="border-t border-gray-800">
                      <th scope="row" className="px-3 py-2 font-normal">{day.day}</th>
                      <td className="px-3 py-2 text-right">{day.opens}</td>
                      <td className="px-3 py-2 text-right">{day.visitors}</td>
                      <td className="px-3 py-2 text-right">{day.projectClicks}</td>
                      <td className="px-3 py-2 text-right">{day.resumeDownloads}</td>
                      <td className="px-3 py-2 text-right">{day.messages}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </li>
  );
}
