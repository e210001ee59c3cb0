import type { DayLevel, PublicComponent } from "@rpcpulse/services";
import { encodeDayIncidents, encodeUptimes, formatUptime } from "./uptime-day-code.js";

/** Horizontal pitch of one day in viewBox units; each day is a vertical stroke (CSS stroke-width). */
const PITCH = 5;
const H = 28;
const LEVELS: readonly DayLevel[] = ["ok", "minor", "partial", "major", "none"];

interface BarsMarkup {
  width: number;
  paths: [DayLevel, string][];
  incidentMarks: string;
  u: string;
  inc: string;
  daysWithIncidents: number;
}

/**
 * 90 daily bars as one SVG with one path per uptime level ("M2 0v28M7 0v28…": ~9 bytes a day) and
 * the per-day tooltip data as compact data attributes (uptime-day-code.ts), shown by the page's one
 * client tooltip (uptime-tooltip.tsx). 100 components stay ~150 KB instead of ~2 MB of <rect>s with
 * <title>s. Memoised per component object: a snapshot is rendered for many visitors.
 */
const rendered = new WeakMap<object, BarsMarkup>();

export function buildBarsMarkup(component: PublicComponent, incidentIndex: ReadonlyMap<string, number>): BarsMarkup {
  const hit = rendered.get(component);
  if (hit) return hit;
  const byLevel = new Map<DayLevel, string>();
  let incidentMarks = "";
  component.days.forEach((d, i) => {
    const x = i * PITCH + 2;
    byLevel.set(d.level, `${byLevel.get(d.level) ?? ""}M${x} 0v${H}`);
    if (d.incidents.length > 0) incidentMarks += `M${x} ${H - 3}v3`;
  });
  const markup: BarsMarkup = {
    width: component.days.length * PITCH,
    paths: LEVELS.flatMap((l) => (byLevel.has(l) ? [[l, byLevel.get(l) as string] as [DayLevel, string]] : [])),
    incidentMarks,
    u: encodeUptimes(component.days.map((d) => d.uptime)),
    inc: encodeDayIncidents(
      component.days.map((d) =>
        d.incidents.flatMap((i) => (incidentIndex.has(i.id) ? [incidentIndex.get(i.id)!] : [])),
      ),
    ),
    daysWithIncidents: component.days.filter((d) => d.incidents.length > 0).length,
  };
  rendered.set(component, markup);
  return markup;
}

/** Index of every incident named by some day of the page's components (the tooltip's title list). */
export function indexDayIncidents(components: readonly PublicComponent[]): {
  index: Map<string, number>;
  titles: string[];
} {
  const index = new Map<string, number>();
  const titles: string[] = [];
  for (const c of components)
    for (const d of c.days)
      for (const i of d.incidents)
        if (!index.has(i.id)) {
          index.set(i.id, titles.length);
          titles.push(i.title);
        }
  return { index, titles };
}

export function UptimeBars(props: { component: PublicComponent; incidentIndex: ReadonlyMap<string, number> }) {
  const { component } = props;
  const m = buildBarsMarkup(component, props.incidentIndex);
  const summary =
    `${component.name}: ${formatUptime(component.uptime90)} uptime over the last ${component.days.length} days` +
    (m.daysWithIncidents > 0 ? `, ${m.daysWithIncidents} days with incidents` : "") +
    ". Use the arrow keys for each day.";
  return (
    <div
      className="sp-bars-box"
      tabIndex={0}
      role="group"
      aria-label={summary}
      aria-describedby="sp-day-tip"
      data-first={component.days[0]?.date ?? ""}
      data-u={m.u}
      data-inc={m.inc}
    >
      <svg className="sp-bars" viewBox={`0 0 ${m.width} ${H}`} preserveAspectRatio="none" aria-hidden="true">
        {m.paths.map(([level, d]) => (
          <path key={level} className={`lv-${level}`} d={d} />
        ))}
        {m.incidentMarks ? <path className="inc" d={m.incidentMarks} /> : null}
      </svg>
    </div>
  );
}

/** A 24-hour sparkline (hourly values) as a tiny SVG path with gaps for missing hours. */
export function Sparkline(props: { values: (number | null)[]; label: string; format: (value: number) => string }) {
  const present = props.values.filter((v): v is number => v !== null);
  if (present.length === 0) return <span className="sp-spark-empty muted small">no data</span>;
  const max = Math.max(...present, 1);
  const w = 96;
  const h = 22;
  const step = w / Math.max(1, props.values.length - 1);
  let d = "";
  let pen = false;
  props.values.forEach((v, i) => {
    if (v === null) {
      pen = false;
      return;
    }
    const x = (i * step).toFixed(1);
    const y = (h - 2 - (v / max) * (h - 4)).toFixed(1);
    d += `${pen ? "L" : "M"}${x} ${y}`;
    pen = true;
  });
  const last = present[present.length - 1] ?? 0;
  return (
    <span className="sp-spark">
      <svg viewBox={`0 0 ${w} ${h}`} width={w} height={h} role="img" aria-label={`${props.label}, last 24 hours`}>
        <path d={d} className="sp-spark-line" />
      </svg>
      <span className="small muted">{props.format(last)}</span>
    </span>
  );
}
