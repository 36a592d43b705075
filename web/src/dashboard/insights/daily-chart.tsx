import type { DayFigures } from '../../api/insights';

const WIDTH = 720;
const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 36 };

/**
 * Page views (wide bars) and visitors (narrow bars inside them) per day, drawn as plain SVG. It is
 * a picture for the eye: the table beside it holds the same figures for everyone.
 */
export function DailyChart({ days }: { days: DayFigures[] }) {
  const max = Math.max(1, ...days.map((d) => d.pageViews));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const step = plotWidth / Math.max(1, days.length);
  const bar = Math.max(1, step * 0.8);
  const y = (n: number) => PAD.top + plotHeight - (n / max) * plotHeight;
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  return (
    <figure className="mt-4 rounded-xl border border-gray-800 bg-gray-900 p-4">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="[height:auto] w-full"
        role="img"
        aria-label={`Chart of page views and visitors per day from ${first} to ${last}; the table below lists the figures.`}
      >
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} className="stroke-gray-600" />
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(max)} y2={y(max)} className="stroke-gray-800" strokeDasharray="4 4" />
        <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" className="fill-gray-300 text-[11px]">
          {max}
        </text>
        <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" className="fill-gray-300 text-[11px]">
          0
        </text>
        {days.map((d, i) => {
          const x = PAD.left + i * step + (step - bar) / 2;
          return (
            <g key={d.day}>
              <rect x={x} width={bar} y={y(d.pageViews)} height={y(0) - y(d.pageViews)} className="fill-blue-500/50" />
              <rect
                x={x + bar / 4}
                width={bar / 2}
                y={y(d.visitors)}
                height={y(0) - y(d.visitors)}
                className="fill-emerald-300"
              />
            </g>
          );
        })}
        <text x={PAD.left} y={HEIGHT - 6} className="fill-gray-300 text-[11px]">
          {first}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end" className="fill-gray-300 text-[11px]">
          {last}
        </text>
      </svg>
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
