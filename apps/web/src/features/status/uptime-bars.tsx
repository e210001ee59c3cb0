import type { DayLevel, PublicComponent } from "@rpcpulse/services/status";
import { encodeDayIncidents, encodeUptimes, formatUptime } from "./uptime-day-code.js";

/**
 * Horizontal pitch of one day in viewBox units. A run of days of one level is one horizontal stroke
 * "M<x> 14h<5k>" whose CSS dash pattern (4 on, 1 off, restarting at each subpath) cuts it into k bars.
 */
const PITCH = 5;
const H = 28;
const LEVELS: readonly DayLevel[] = ["ok", "minor", "partial", "major", "none"];

/** Runs of consecutive days for which `pick` gives the same key, as "M<x> <y>h<len>" subpaths per key. */
function runsByKey<K>(count: number, pick: (i: number) => K | null, y: number): Map<K, string> {
  const out = new Map<K, string>();
  let start = 0;
  for (let i = 1; i <= count; i++) {
    const key = pick(start);
    if (i < count && pick(i) === key) continue;
    if (key !== null) out.set(key, `${out.get(key) ?? ""}M${start * PITCH} ${y}h${(i - start) * PITCH}`);
    start = i;
  }
  return out;
}

interface BarsMarkup {
  width: number;
  paths: [DayLevel, string][];
  incidentMarks: string;
  u: string;
  inc: string;
  daysWithIncidents: number;
}

/**
 * 90 daily bars as one SVG with one path per uptime level (one stroke per run of days: a healthy
 * component's 90 days are a few dozen bytes) and
 * the per-day tooltip data as compact data attributes (uptime-day-code.ts), shown by the page's one
 * client tooltip (uptime-tooltip.tsx). 100 components stay well under 100 KB instead of ~2 MB of
 * <rect>s with <title>s. Memoised per component object: a snapshot is rendered for many visitors.
 */
const rendered = new WeakMap<object, BarsMarkup>();

export function buildBarsMarkup(component: PublicComponent, incidentIndex: ReadonlyMap<string, number>): BarsMarkup {
  const hit = rendered.get(component);
  if (hit) return hit;
  const days = component.days;
  const byLevel = runsByKey(days.length, (i) => days[i]?.level ?? null, H / 2);
  const incidentMarks =
    runsByKey(days.length, (i) => ((days[i]?.incidents.length ?? 0) > 0 ? true : null), H - 1.5).get(true) ?? "";
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
