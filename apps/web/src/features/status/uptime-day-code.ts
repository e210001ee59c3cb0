/**
 * The compact form of a component's 90 uptime days that the public page sends once (as data
 * attributes) and the day tooltip (uptime-tooltip.tsx) reads back. No imports: the tooltip is a
 * client component and must not pull server code into the browser bundle.
 *
 *   data-first  the first day, YYYY-MM-DD (UTC); day i is first + i days
 *   data-u      per day, comma-separated: "" = 100 %, "-" = no data, else uptime in 1/100,000
 *   data-inc    "dayIndex:i.j;…" for days with incidents, i and j indexing the page's incident titles
 */

export function formatUptime(value: number | null): string {
  if (value === null) return "no data";
  const pct = value * 100;
  if (pct >= 99.995) return "100%";
  return `${pct.toFixed(pct >= 99 ? 2 : 1)}%`;
}

export function encodeUptimes(values: readonly (number | null)[]): string {
  return values
    .map((v) => {
      if (v === null) return "-";
      const n = Math.round(Math.min(1, Math.max(0, v)) * 100_000);
      return n === 100_000 ? "" : String(n);
    })
    .join(",");
}

export function decodeUptime(code: string | undefined): number | null {
  if (code === undefined || code === "-") return null;
  if (code === "") return 1;
  const n = Number(code);
  return Number.isFinite(n) ? n / 100_000 : null;
}

export function encodeDayIncidents(perDay: readonly (readonly number[])[]): string {
  return perDay.flatMap((list, day) => (list.length > 0 ? [`${day}:${list.join(".")}`] : [])).join(";");
}

export function decodeDayIncidents(code: string, day: number): number[] {
  for (const part of code.split(";")) {
    const [d, list] = part.split(":");
    if (Number(d) === day && list) return list.split(".").map(Number);
  }
  return [];
}

export function dayDate(first: string, index: number): string {
  const t = Date.parse(`${first}T00:00:00Z`) + index * 86_400_000;
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : first;
}

/** The tooltip's lines for one day (the same text the page used to put in SVG <title>s). */
export function dayTooltipLines(input: {
  date: string;
  uptime: number | null;
  incidentTitles: readonly string[];
}): string[] {
  const head = `${input.date}: ${input.uptime === null ? "no data" : `${formatUptime(input.uptime)} uptime`}`;
  return [head, ...input.incidentTitles.map((t) => `incident: ${t}`)];
}
