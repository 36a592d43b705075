/**
 * The first-day checklist, above the inbox until every item is done: each item read from the
 * server's data (`GET /api/checklist`), never ticked by hand, and each a link to where it is done.
 * Looked at again when a dialog closes (a passkey added, say) and when the tab is shown again.
 * Folding it away is remembered in this browser.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CheckCircle2, Circle } from 'lucide-react';
import { readChecklist, type Checklist } from '../../api/checklist';

const FOLDED_KEY = 'portfolio:first-day:folded';

/** A flag of the server's command line, kept on one line. */
const flag = (name: string) => <code className="whitespace-nowrap">--{name}</code>;

const ITEMS: [key: keyof Checklist, title: string, todo: ReactNode, to: string][] = [
  ['profile', 'Your name, photo and intro', 'Replace the placeholder’s, all three.', '?view=page&part=profile'],
  ['projects', 'Your projects', 'Replace the sample projects with yours.', '?view=page&part=projects'],
  ['resume', 'Your resume', 'Make it from your page, or upload a PDF.', '?view=page&part=resume'],
  ['published', 'Publish', 'Publish it, so visitors see your name.', '?view=page'],
  [
    'notifications',
    'E-mail notifications',
    <>
      Start the server with {flag('smtp-url')} and {flag('notify-email')}, then send a test e-mail.
    </>,
    '?account=notifications',
  ],
  ['secondWayIn', 'A second way in', 'Add a passkey or turn on two-step verification.', '?account=security'],
];

export function FirstDay() {
  const listId = useId();
  const [checklist, setChecklist] = useState<Checklist | null>(null);
  const [folded, setFolded] = useState(() => localStorage.getItem(FOLDED_KEY) === '1');

  useEffect(() => {
    const controller = new AbortController();
    const load = () => {
      if (document.visibilityState === 'visible') readChecklist(controller.signal).then(setChecklist, () => {});
    };
    load();
    // `close` does not bubble: caught on its way down instead.
    document.addEventListener('close', load, true);
    document.addEventListener('visibilitychange', load);
    return () => {
      controller.abort();
      document.removeEventListener('close', load, true);
      document.removeEventListener('visibilitychange', load);
    };
  }, []);

  if (!checklist) return null;
  const done = ITEMS.filter(([key]) => checklist[key]).length;
  if (done === ITEMS.length) return null;

  function fold() {
    localStorage.setItem(FOLDED_KEY, folded ? '' : '1');
    setFolded(!folded);
  }

  return (
    <section aria-labelledby="first-day-title" className="container-page pt-6">
      <div className="rounded-xl border border-gray-800 bg-gray-900 p-4">
        <div className="flex flex-wrap items-center justify-between gap-x-4">
          <h2 id="first-day-title" className="font-semibold text-white">
            Make the page yours <span className="ml-2 text-sm font-normal text-gray-400">{done} of {ITEMS.length} done</span>
          </h2>
          <button type="button" className="btn btn-ghost px-3" aria-expanded={!folded} aria-controls={listId} onClick={fold}>
            {folded ? 'Show the steps' : 'Hide the steps'}
          </button>
        </div>
        <ol id={listId} hidden={folded} className="mt-3 grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {ITEMS.map(([key, title, todo, to]) => {
            const Icon = checklist[key] ? CheckCircle2 : Circle;
            return (
              <li key={key}>
                <Link to={to} className="flex min-h-11 gap-3 rounded-lg p-2 no-underline hover:bg-gray-800">
                  <Icon aria-hidden="true" className={`mt-0.5 size-5 shrink-0 ${checklist[key] ? 'text-emerald-400' : 'text-gray-500'}`} />
                  <span className="text-sm">
                    <span className="block font-medium text-white">{title}</span>
                    <span className="text-gray-400">{checklist[key] ? 'Done' : <>To do: {todo}</>}</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}
