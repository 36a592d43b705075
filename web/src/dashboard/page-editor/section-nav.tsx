/**
 * The parts of the document as links (`?view=page&part=…`), the current one marked, each with its
 * problems counted; an open case study is a link of its own below Projects, its problems counted too.
 */
import { Link } from 'react-router';
import { PARTS, type PartId } from './parts';
import { ProblemCount, withProblems } from './problem-count';

/** A case study being edited, shown below its project's part. */
export interface OpenCaseStudy {
  project: string;
  label: string;
  problems: number;
}

export function SectionNav({
  part,
  counts,
  onOpen,
  caseStudy,
}: {
  part: PartId;
  counts: Partial<Record<PartId, number>>;
  /** A part's link was followed (focus then moves to the part). */
  onOpen: (id: PartId) => void;
  caseStudy?: OpenCaseStudy;
}) {
  return (
    <nav aria-label="Parts of the page" className="lg:sticky lg:top-(--below-bar) lg:self-start">
      <ul className="flex flex-wrap gap-1 lg:flex-col">
        {PARTS.map(({ id, label }) => {
          const current = id === part && !caseStudy;
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
              {id === 'projects' && caseStudy && (
                <ul>
                  <li>
                    <Link
                      to={{ search: `?view=page&part=projects&case=${encodeURIComponent(caseStudy.project)}` }}
                      aria-current="page"
                      aria-label={withProblems(caseStudy.label, caseStudy.problems)}
                      className="flex min-h-11 items-center justify-between gap-2 rounded-lg ps-6 pe-3 text-sm font-medium no-underline bg-gray-800 text-white"
                    >
                      {caseStudy.label}
                      {caseStudy.problems > 0 && <ProblemCount count={caseStudy.problems} />}
                    </Link>
                  </li>
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
