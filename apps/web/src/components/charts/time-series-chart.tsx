"use client";
import { useEffect, useMemo, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { zoneName } from "@/lib/format.js";
import { useDisplayPrefs } from "../display-prefs.js";

export interface ChartSeries {
  label: string;
  color: string;
  values: (number | null)[];
  /** Right-hand axis (second unit). */
  right?: boolean;
  dashed?: boolean;
}

export interface TimeSeriesChartProps {
  title: string;
  /** Unix seconds. */
  time: number[];
  series: ChartSeries[];
  /** Axis label and value formatter of the left axis (and the right one, when a series uses it). */
  unit: string;
  format: (v: number) => string;
  rightUnit?: string;
  rightFormat?: (v: number) => string;
  /** Stack the series (areas); the legend still shows each series' own value. */
  stacked?: boolean;
  height?: number;
  /** Fixed time axis [from, to] in Unix seconds (the selected range), so sparse data keeps its place. */
  xRange?: [number, number];
  /** Shown instead of the chart when there is no value at all. */
  emptyText: string;
  /** Vertical markers (Unix seconds) drawn across the plot, e.g. when a change was applied. */
  markers?: { time: number; label: string }[];
}

function hasValues(series: ChartSeries[]): boolean {
  return series.some((s) => s.values.some((v) => v !== null));
}

/** Cumulative sums for a stacked chart (null counts as 0 under a value, stays null on its own). */
function stack(series: ChartSeries[]): (number | null)[][] {
  const out: (number | null)[][] = [];
  let running: number[] = [];
  series.forEach((s, i) => {
    const row = s.values.map((v, j) => {
      const below = i === 0 ? 0 : (running[j] ?? 0);
      return v === null ? (i === 0 ? null : below) : below + v;
    });
    running = row.map((v) => v ?? 0);
    out.push(row);
  });
  return out;
}

/**
 * A time-series chart on uPlot: time axis, value axes with units, a legend that shows the values
 * under the cursor (hover), optional stacking. Resizes with its container.
 */
export function TimeSeriesChart(props: TimeSeriesChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const { series, time, stacked, format, rightFormat } = props;
  // Axis times in the viewer's display zone (the same as the page's text), colours per theme.
  const { zone, theme } = useDisplayPrefs();
  const shapeKey = `${zone}|${theme}|${props.xRange ? "fixed" : "auto"}|${props.title}|${series.map((s) => `${s.label}:${s.right ? 1 : 0}`).join(",")}|${stacked ? 1 : 0}`;

  const data = useMemo((): uPlot.AlignedData => {
    const ys = stacked ? stack(series) : series.map((s) => s.values);
    // Stacked areas are drawn top-most first so lower ones paint over them.
    return [time, ...(stacked ? ys.reverse() : ys)] as uPlot.AlignedData;
  }, [time, series, stacked]);

  const empty = !hasValues(series);
  // The legend of a stacked chart shows each series' own value; kept current across setData.
  const rawRef = useRef<(number | null)[][]>([]);
  // Read by the x scale on every redraw, so a moving window needs no re-creation.
  const xRangeRef = useRef<[number, number] | undefined>(props.xRange);
  xRangeRef.current = props.xRange;
  rawRef.current = (stacked ? [...series].reverse() : series).map((s) => s.values);

  useEffect(() => {
    const el = box.current;
    if (!el || empty) return;
    const ordered = stacked ? [...series].reverse() : series;
    const dark = document.documentElement.getAttribute("data-theme") === "dark";
    const axisStroke = dark ? "#a3afc0" : "#5b6678";
    const gridStroke = dark ? "#2c3849" : "#eef1f5";
    const opts: uPlot.Options = {
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), zone),
      width: Math.max(280, el.clientWidth),
      height: props.height ?? 220,
      cursor: { drag: { x: true, y: false } },
      legend: { live: true },
      scales: {
        x: { time: true, ...(xRangeRef.current ? { range: (_u, min, max) => xRangeRef.current ?? [min, max] } : {}) },
        y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.08 : 1] },
      },
      axes: [
        { stroke: axisStroke, grid: { stroke: gridStroke } },
        {
          label: props.unit,
          stroke: axisStroke,
          grid: { stroke: gridStroke },
          size: 64,
          values: (_u, splits) => splits.map((v) => format(v)),
        },
        ...(props.rightUnit
          ? [
              {
                scale: "y2",
                side: 1 as const,
                label: props.rightUnit,
                stroke: axisStroke,
                grid: { show: false },
                size: 64,
                values: (_u: uPlot, splits: number[]) => splits.map((v) => (rightFormat ?? format)(v)),
              },
            ]
          : []),
      ],
      series: [
        { label: "Time" },
        ...ordered.map((s, i): uPlot.Series => ({
          label: s.label,
          stroke: s.color,
          width: 1.5,
          scale: s.right ? "y2" : "y",
          dash: s.dashed ? [6, 4] : undefined,
          fill: stacked ? s.color : undefined,
          spanGaps: false,
          points: { show: false },
          value: (_u, v, _si, idx) => {
            const shown = stacked && idx !== null ? (rawRef.current[i]?.[idx] ?? null) : v;
            return shown === null || shown === undefined ? "—" : (s.right ? (rightFormat ?? format) : format)(shown);
          },
        })),
      ],
    };
    const markers = props.markers ?? [];
    if (markers.length > 0) {
      opts.hooks = {
        draw: [
          (plotted: uPlot) => {
            const ctx = plotted.ctx;
            const { top, height } = plotted.bbox;
            ctx.save();
            ctx.strokeStyle = "#b42318";
            ctx.fillStyle = "#b42318";
            ctx.lineWidth = 1.5 * devicePixelRatio;
            ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
            ctx.font = `${11 * devicePixelRatio}px system-ui, sans-serif`;
            for (const m of markers) {
              const x = Math.round(plotted.valToPos(m.time, "x", true));
              ctx.beginPath();
              ctx.moveTo(x, top);
              ctx.lineTo(x, top + height);
              ctx.stroke();
              ctx.fillText(m.label, x + 4 * devicePixelRatio, top + 12 * devicePixelRatio);
            }
            ctx.restore();
          },
        ],
      };
    }
    const u = new uPlot(opts, data, el);
    plot.current = u;
    const resize = new ResizeObserver(() =>
      u.setSize({ width: Math.max(280, el.clientWidth), height: props.height ?? 220 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Re-created only when the shape changes; new data goes through setData below.
  }, [shapeKey, empty]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  return (
    <figure className="chart" aria-label={props.title}>
      <figcaption>
        {props.title} <span className="small muted">({zoneName(new Date(), zone)})</span>
      </figcaption>
      {empty ? <p className="chart-empty">{props.emptyText}</p> : <div ref={box} className="chart-box" />}
    </figure>
  );
}
