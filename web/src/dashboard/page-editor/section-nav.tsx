/** The parts of the document as links (`?view=page&part=…`), the current one marked, each with its problems counted. */
import { Link } from 'react-router';
import { PARTS, type PartId } from './parts';
import { ProblemCount, withProblems } from './problem-count';

export function SectionNav({
  part,
  counts,
  onOpen,
}: {
  part: PartId;
  counts: Partial<Record<PartId, number>>;
  /** A part's link was followed (focus then moves to the part). */
  onOpen: (id: PartId) => void;
}) {
  return (
    <nav aria-label="Parts of the page" className="lg:sticky lg:top-(--below-bar) lg:self-start">
      <ul className="flex flex-wrap gap-1 lg:flex-col">
        {PARTS.map(({ id, label }) => {
          const current = id === part;
          const count = counts[id] ?? 0;
          return (
            <li key={id}>
              <Link
                to={{ search: `?view=page&part=${id}` }}
                aria-current={current ? 'page' : undefined}
                aria-label={withProblems(label, count)}
                onClick={() => onOpen(id)}
                className={`flex min-h-11 items-center justify-between gap-2 rounded-lg px-3 text-sm font-medium no-underline ${
                  current ? 'bg-gray-800 text-white' : 'text-gray-300 hover:bg-gray-900 hover:text-white'
                } ${id === 'versions' ? 'lg:mt-3' : ''}`}
              >
                {label}
                {count > 0 && <ProblemCount count={count} />}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
