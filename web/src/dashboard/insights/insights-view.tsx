import { useEffect, useState, type ReactNode } from 'react';
import { Download } from 'lucide-react';
import { caseStudyLabel, postLabel } from '../shared/format';
import { sessionEnded } from '../shared/session';
import {
  insightsExportUrl,
  insightsFigures,
  type InsightsFigures,
  type KeyCount,
  type Range,
} from '../../api/insights';
import { useContent } from '../../content/context';
import type { Project } from '../../content/document.generated';
import { DailyChart } from './daily-chart';

const RANGES: Range[] = [7, 30, 90];
const SOCIAL: Record<string, string> = { github: 'GitHub', linkedin: 'LinkedIn', twitter: 'X (Twitter)', email: 'Email' };

/** A counted link's content id in words: `project:shop:code` is "Shop: code". */
export function clickLabel(id: string, projects: readonly Project[]): string {
  const [kind, name = '', part] = id.split(':');
  if (kind === 'project') {
    const title = projects.find((p) => p.id === name)?.title ?? name;
    return part === 'demo' ? `${title}: live demo` : part === 'code' ? `${title}: code` : `${title}: ${part ?? ''}`;
  }
  if (kind === 'social') return `${SOCIAL[name] ?? name} profile`;
  return id;
}

/** The owner's view of visitors: a chart and table per day, where they came from, what they opened. */
export function InsightsView() {
  const { projects } = useContent();
  const [range, setRange] = useState<Range>(7);
  const [figures, setFigures] = useState<InsightsFigures | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    insightsFigures(range, controller.signal).then(
      (next) => {
        setFigures(next);
        setError(null);
      },
      (cause: unknown) => {
        if (controller.signal.aborted || sessionEnded(cause)) return;
        setError(cause instanceof Error ? cause.message : String(cause));
      },
    );
    return () => controller.abort();
  }, [range]);

  const totals = figures?.totals;
  return (
    <div className="container-page py-6 md:py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-heading font-bold text-white">Insights</h1>
        <div className="flex flex-wrap items-center gap-2">
          <div role="group" aria-label="Period" className="flex gap-1 rounded-lg border border-gray-800 p-1">
            {RANGES.map((days) => (
              <button
                key={days}
                type="button"
                aria-pressed={range === days}
                onClick={() => setRange(days)}
                className={`min-h-11 rounded-md px-3 text-sm font-medium ${
                  range === days ? 'bg-blue-600 text-white' : 'text-gray-300 hover:bg-gray-800 hover:text-white'
                }`}
              >
                {days} days
              </button>
            ))}
          </div>
          <a className="btn btn-secondary min-h-11 px-3 text-sm" href={insightsExportUrl(range)} download>
            <Download aria-hidden="true" className="size-4" />
            Download figures as CSV
          </a>
        </div>
      </div>

      {error && (
        <p role="alert" className="mt-4 rounded-lg border border-red-400/40 bg-red-950 px-4 py-3 text-red-100">
          {error}
        </p>
      )}
      {figures && !figures.enabled && (
        <p role="status" className="mt-4 rounded-lg border border-amber-400/40 bg-amber-950 px-4 py-3 text-amber-100">
          Insights are off (<code>--insights off</code>): nothing new is counted.
        </p>
      )}

      {figures && totals && (
        <>
          <dl className="mt-6 grid grid-cols-2 gap-3 md:grid-cols-4">
            {[
              ['Visitors', totals.visitors.toLocaleString()],
              ['Page views', totals.pageViews.toLocaleString()],
              ['Resume downloads', totals.resumeDownloads.toLocaleString()],
              [
                'Messages per 100 visitors',
                totals.messagesPer100Visitors === null ? '–' : totals.messagesPer100Visitors.toLocaleString(),
              ],
            ].map(([label, value]) => (
              <div key={label} className="rounded-xl border border-gray-800 bg-gray-900 p-4">
                <dt className="text-sm text-gray-300">{label}</dt>
                <dd className="mt-1 text-2xl font-bold text-white">{value}</dd>
              </div>
            ))}
          </dl>

          <section aria-labelledby="daily-title" className="mt-8">
            <h2 id="daily-title" className="text-lg font-semibold text-white">
              Visitors and page views, last {range} days
            </h2>
            <p className="text-sm text-gray-300">Days in {figures.timeZone}.</p>
            <DailyChart days={figures.days} />
            <div className="mt-4 max-h-96 overflow-auto rounded-xl border border-gray-800" tabIndex={0} role="region" aria-label="Daily figures">
              <table className="w-full text-left text-sm text-gray-200">
                <caption className="sr-only">Daily figures, last {range} days</caption>
                <thead className="sticky top-0 bg-gray-900 text-gray-300">
                  <tr>
                    <th scope="col" className="px-3 py-2">Day</th>
                    <th scope="col" className="px-3 py-2 text-right">Visitors</th>
                    <th scope="col" className="px-3 py-2 text-right">Page views</th>
                    <th scope="col" className="px-3 py-2 text-right">Resume downloads</th>
                    <th scope="col" className="px-3 py-2 text-right">Messages</th>
                  </tr>
                </thead>
                <tbody>
                  {[...figures.days].reverse().map((d) => (
                    <tr key={d.day} className="border-t border-gray-800">
                      <th scope="row" className="px-3 py-2 font-normal">{d.day}</th>
                      <td className="px-3 py-2 text-right">{d.visitors}</td>
                      <td className="px-3 py-2 text-right">{d.pageViews}</td>
                      <td className="px-3 py-2 text-right">{d.resumeDownloads}</td>
                      <td className="px-3 py-2 text-right">{d.messages}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <div className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-2">
            <TopList title="Top referrers" column="Site" rows={figures.referrers} />
            <TopList title="Campaigns" column="Source / medium / campaign" rows={figures.campaigns} />
            <TopList
              title="Case studies"
              column="Case study"
              rows={figures.caseStudies.map(({ project, count }) => ({ key: project, count }))}
              label={(project) => caseStudyLabel(figures.caseStudies.find((c) => c.project === project) ?? { project })}
            />
            <TopList
              title="Posts"
              column="Post"
              rows={figures.posts.map(({ post, count }) => ({ key: post, count }))}
              label={(post) => {
                // Its title linked to its address while it is published, else its id in words.
                const count = figures.posts.find((p) => p.post === post) ?? { post, path: null };
                return count.path ? (
                  <a href={count.path} className="link">
                    {postLabel(count)}
                  </a>
                ) : (
                  postLabel(count)
                );
              }}
            />
            <TopList title="Clicks per project and link" column="Link" rows={figures.clicks} label={(id) => clickLabel(id, projects)} />
            <TopList title="Devices" column="Device" rows={figures.devices} />
            <TopList title="Browsers" column="Browser" rows={figures.browsers} />
          </div>
        </>
      )}
    </div>
  );
}

function TopList({
  title,
  column,
  rows,
  label = (key) => key,
}: {
  title: string;
  column: string;
  rows: KeyCount[];
  label?: (key: string) => ReactNode;
}) {
  const id = `top-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="rounded-xl border border-gray-800 bg-gray-900 p-4">
      <h2 id={id} className="text-base font-semibold text-white">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-gray-300">None yet.</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm text-gray-200">
          <thead className="text-gray-300">
            <tr>
              <th scope="col" className="py-1">{column}</th>
              <th scope="col" className="py-1 text-right">Count</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className="border-t border-gray-800">
                <th scope="row" className="py-1 font-normal break-all">{label(row.key)}</th>
                <td className="py-1 text-right">{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
