import type { PublicComponent, PublicDay } from "@rpcpulse/services";
import { escapeXml } from "../directory/badge-svg.js";
import { formatUptime } from "./format.js";

const BAR_W = 4;
const GAP = 1.5;
const H = 28;

function tip(day: PublicDay): string {
  const parts = [`${day.date}: ${day.uptime === null ? "no data" : `${formatUptime(day.uptime)} uptime`}`];
  parts.push(...day.incidents.map((i) => `incident: ${i.title}`));
  return parts.join("\n");
}

/**
 * 90 daily bars as one SVG (no client JS). Each bar's <title> is its tooltip: date, uptime and the
 * incidents of that day; the colour class comes from the day's uptime level. Rendered once per
 * snapshot as a string (escaped here) and memoised on the component object, so a cached page
 * does not rebuild 9,000 React elements per request.
 */
const rendered = new WeakMap<object, string>();

export function uptimeBarsSvg(days: PublicDay[], label: string): string {
  const width = days.length * (BAR_W + GAP) - GAP;
  const rects = days
    .map(
      (d, i) =>
        `<rect x="${i * (BAR_W + GAP)}" class="lv-${d.level}${d.incidents.length > 0 ? " inc" : ""}"><title>${escapeXml(tip(d))}</title></rect>`,
    )
    .join("");
  return `<svg class="sp-bars" viewBox="0 0 ${width} ${H}" preserveAspectRatio="none" role="img" aria-label="${escapeXml(`${label}: daily uptime, last ${days.length} days`)}">${rects}</svg>`;
}

export function UptimeBars(props: { component: PublicComponent }) {
  let html = rendered.get(props.component);
  if (html === undefined) {
    html = uptimeBarsSvg(props.component.days, props.component.name);
    rendered.set(props.component, html);
  }
  return <div className="sp-bars-box" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A 24-hour sparkline (hourly values) as a tiny SVG path with gaps for missing hours. */
export function Sparkline(props: { values: (number | null)[]; label: string; unit: string }) {
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
      <span className="small muted">
        {Math.round(last)} {props.unit}
      </span>
    </span>
  );
}
