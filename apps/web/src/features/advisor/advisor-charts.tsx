"use client";
import { TimeSeriesChart } from "@/components/charts/time-series-chart.js";
import { formatNumber } from "./format.js";

type Point = { time: string; value: number };

const secs = (iso: string) => Math.round(Date.parse(iso) / 1000);

/** The series behind one piece of evidence, with its threshold as a dashed line. */
export function EvidenceChart(props: { title: string; unit: string; threshold: number; points: Point[] }) {
  const time = props.points.map((p) => secs(p.time));
  return (
    <TimeSeriesChart
      title={props.title}
      time={time}
      unit={props.unit}
      format={formatNumber}
      height={150}
      emptyText="No series stored for this evidence."
      series={[
        { label: "observed", color: "#0e7c86", values: props.points.map((p) => p.value) },
        { label: "threshold", color: "#dc2626", dashed: true, values: time.map(() => props.threshold) },
      ]}
    />
  );
}

/**
 * Before/after the change: the "before" series grey, the "after" series in the accent colour (the
 * colour switch is the change), each with its median as a dashed line over its own side.
 */
export function BeforeAfterChart(props: {
  title: string;
  unit: string;
  ratio: boolean;
  before: Point[];
  after: Point[];
  beforeMedian: number | null;
  afterMedian: number | null;
  /** ISO time of the change (drawn as a marker). */
  appliedAt: string;
}) {
  const scale = props.ratio ? 100 : 1;
  const all = [
    ...props.before.map((p) => ({ t: secs(p.time), side: "before" as const, v: p.value * scale })),
    ...props.after.map((p) => ({ t: secs(p.time), side: "after" as const, v: p.value * scale })),
  ].sort((a, b) => a.t - b.t);
  const time = all.map((p) => p.t);
  const pick = (side: "before" | "after") => all.map((p) => (p.side === side ? p.v : null));
  const median = (side: "before" | "after", m: number | null) =>
    all.map((p) => (p.side === side && m !== null ? m * scale : null));
  return (
    <TimeSeriesChart
      title={props.title}
      time={time}
      unit={props.unit}
      format={formatNumber}
      height={200}
      emptyText="No samples around the change yet."
      markers={[{ time: secs(props.appliedAt), label: "change applied" }]}
      series={[
        { label: "before", color: "#94a3b8", values: pick("before") },
        { label: "after", color: "#0e7c86", values: pick("after") },
        { label: "median before", color: "#64748b", dashed: true, values: median("before", props.beforeMedian) },
        { label: "median after", color: "#0a5f67", dashed: true, values: median("after", props.afterMedian) },
      ]}
    />
  );
}
