import type { DayFigures } from '../../api/insights';

const WIDTH = 720;
const HEIGHT = 160;

/**
 * Page views (wide bars) and visitors (narrow bars inside them) per day, drawn as plain SVG
 * stretched to the width; its labels are text beside it, so they keep their size on a phone. It is
 * a picture for the eye: the table beside it holds the same figures for everyone.
 */
export function DailyChart({ days }: { days: DayFigures[] }) {
  const max = Math.max(1, ...days.map((d) => d.pageViews));
  const step = WIDTH / Math.max(1, days.length);
  const bar = Math.max(1, step * 0.8);
  const y = (n: number) => HEIGHT - (n / max) * (HEIGHT - 1);
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  return (
    <figure className="mt-4 rounded-xl border border-gray-800 bg-gray-900 p-4">
      <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs text-gray-300">
        <div aria-hidden="true" className="flex flex-col justify-between text-right tabular-nums">
          <span className="-mt-1.5">{max}</span>
          <span className="-mb-1.5">0</span>
        </div>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          className="h-40 w-full"
          role="img"
          aria-label={`Chart of page views and visitors per day from ${first} to ${last}; the table below lists the figures.`}
        >
          <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-gray-600" vectorEffect="non-scaling-stroke" />
          <line x1={0} x2={WIDTH} y1={1} y2={1} className="stroke-gray-800" strokeDasharray="4 4" vectorEffect="non-scaling-stroke" />
          {days.map((d, i) => {
            const x = i * step + (step - bar) / 2;
            return (
              <g key={d.day}>
                <rect x={x} width={bar} y={y(d.pageViews)} height={HEIGHT - y(d.pageViews)} className="fill-blue-500/50" />
                <rect x={x + bar / 4} width={bar / 2} y={y(d.visitors)} height={HEIGHT - y(d.visitors)} className="fill-emerald-300" />
              </g>
            );
          })}
        </svg>
        <div aria-hidden="true" className="col-start-2 mt-1 flex justify-between">
          <span>{first}</span>
          <span>{last}</span>
        </div>
      </div>
      <figcaption className="mt-2 flex gap-4 text-sm text-gray-300">
        <span className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-blue-500/50" />
          Page views
        </span>
        <span className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-emerald-300" />
          Visitors
        </span>
      </figcaption>
    </figure>
  );
}
