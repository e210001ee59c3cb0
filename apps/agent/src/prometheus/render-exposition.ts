import type { MetricFamily } from "./metric-families.js";

/**
 * Text renderings of metric families: the Prometheus text exposition format 0.0.4 (what
 * node_exporter's textfile collector and every Prometheus read) and OpenMetrics 1.0 (chosen by
 * a scraper's Accept header: counter families without `_total`, UNIT lines, `# EOF`).
 */

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
export const OPENMETRICS_CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";

function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

function escapeLabelValue(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function formatLabels(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return "";
  return `{${entries.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(",")}}`;
}

/** Prometheus text format 0.0.4. */
export function renderPrometheusText(families: MetricFamily[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) lines.push(`${f.name}${formatLabels(s.labels)} ${formatValue(s.value)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** OpenMetrics 1.0 text. */
export function renderOpenMetricsText(families: MetricFamily[]): string {
  const lines: string[] = [];
  for (const f of families) {
    const familyName = f.type === "counter" ? f.name.replace(/_total$/, "") : f.name;
    lines.push(`# TYPE ${familyName} ${f.type}`);
    if (f.unit && familyName.endsWith(`_${f.unit}`)) lines.push(`# UNIT ${familyName} ${f.unit}`);
    lines.push(`# HELP ${familyName} ${escapeHelp(f.help).replace(/"/g, '\\"')}`);
    for (const s of f.samples) lines.push(`${f.name}${formatLabels(s.labels)} ${formatValue(s.value)}`);
  }
  lines.push("# EOF");
  return `${lines.join("\n")}\n`;
}

/** True when an Accept header asks for OpenMetrics (as Prometheus does when it prefers it). */
export function acceptsOpenMetrics(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept
    .split(",")
    .map((part) => part.trim().split(";"))
    .some(([type, ...params]) => {
      if (type?.trim().toLowerCase() !== "application/openmetrics-text") return false;
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return q === undefined || Number(q.slice(2)) > 0;
    });
}
