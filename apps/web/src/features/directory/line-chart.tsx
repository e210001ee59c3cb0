/**
 * A small server-rendered SVG time-series chart (no client JS): time axis, a value axis with a few
 * ticks, one path per series with gaps for missing values, and a text summary for screen readers.
 * Times are labelled in the viewer's zone by a client leaf (components/chart-time.tsx).
 */
import { ChartTime, ChartZone } from "@/components/chart-time.js";

export interface LineSeries {
  label: string;
  /** A CSS class on the path: colour and dash come from directory.css. */
  tone: "a" | "b" | "c" | "bad";
  values: (number | null)[];
}

export interface LineChartProps {
  id: string;
  title: string;
  /** Epoch ms, one per value. */
  times: number[];
  series: LineSeries[];
  format: (v: number) => string;
  /** Fixed value range (e.g. 0..100 for percentages); otherwise 0..max. */
  yMin?: number;
  yMax?: number;
  emptyText: string;
}

const W = 480;
const H = 170;
const PAD = { left: 56, right: 8, top: 10, bottom: 24 };

function niceMax(max: number): number {
  if (max <= 0) return 1;
  const mag = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * mag >= max) return step * mag;
  return 10 * mag;
}

export function LineChart(props: LineChartProps) {
  const { times, series, format } = props;
  const all = series.flatMap((s) => s.values).filter((v): v is number => v !== null);
  if (times.length < 2 || all.length === 0) {
    return (
      <figure className="dir-chart">
        <figcaption>{props.title}</figcaption>
        <p className="dir-chart-empty muted small">{props.emptyText}</p>
      </figure>
    );
  }
  const t0 = times[0] as number;
  const t1 = times[times.length - 1] as number;
  const span = Math.max(1, t1 - t0);
  const yMin = props.yMin ?? 0;
  const yMax = props.yMax ?? niceMax(Math.max(...all));
  const yRange = Math.max(1e-9, yMax - yMin);
  const iw = W - PAD.left - PAD.right;
  const ih = H - PAD.top - PAD.bottom;
  const x = (t: number) => PAD.left + ((t - t0) / span) * iw;
  const y = (v: number) => PAD.top + ih - ((Math.min(yMax, Math.max(yMin, v)) - yMin) / yRange) * ih;

  const paths = series.map((s) => {
    let d = "";
    let pen = false;
    s.values.forEach((v, i) => {
      const t = times[i];
      if (v === null || t === undefined) {
        pen = false;
        return;
      }
      d += `${pen ? "L" : "M"}${x(t).toFixed(1)} ${y(v).toFixed(1)}`;
      pen = true;
    });
    return { ...s, d };
  });
  const yTicks = [0, 0.5, 1].map((f) => yMin + f * yRange);
  const xTicks = [0, 0.5, 1].map((f) => t0 + f * span);
  const summary = series
    .map((s) => {
      const vs = s.values.filter((v): v is number => v !== null);
      if (vs.length === 0) return `${s.label}: no data`;
      return `${s.label}: min ${format(Math.min(...vs))}, max ${format(Math.max(...vs))}, last ${format(vs[vs.length - 1] as number)}`;
    })
    .join("; ");
  const titleId = `${props.id}-title`;
  const descId = `${props.id}-desc`;

  return (
    <figure className="dir-chart">
      <figcaption>
        <span>{props.title}</span>
        <span className="dir-legend">
          {series.map((s) => (
            <span key={s.label} className={`dir-key tone-${s.tone}`}>
              {s.label}
            </span>
          ))}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="dir-chart-svg">
        <title id={titleId}>{props.title}</title>
        <desc id={descId}>
          <ChartTime ms={t0} spanMs={span} /> to <ChartTime ms={t1} spanMs={span} /> <ChartZone />. {summary}.
        </desc>
        {yTicks.map((v) => (
          <g key={`y${v}`} className="dir-grid">
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end">
              {format(v)}
            </text>
          </g>
        ))}
        {xTicks.map((t, i) => (
          <text
            key={`x${t}`}
            className="dir-axis"
            x={x(t)}
            y={H - 6}
            textAnchor={i === xTicks.length - 1 ? "end" : i === 0 ? "start" : "middle"}
          >
            <ChartTime ms={t} spanMs={span} />
          </text>
        ))}
        {paths.map((p) => (
          <path key={p.label} d={p.d} className={`dir-line tone-${p.tone}`} />
        ))}
      </svg>
    </figure>
  );
}
