import type { RuleContext } from "../engine.js";
import { chartSeries, metricSeries, type Point } from "../metrics.js";
import type { Evidence, Severity, SuggestionDraft, SuggestionVerification, TargetMetric } from "../types.js";

const SEVERITY_BASE: Record<Severity, number> = { critical: 80, high: 60, medium: 40, low: 20, info: 5 };

/**
 * Sorting key 0-100: the severity band plus up to 19 points for how far past its threshold the
 * observation is (log2 of observed/threshold, 5 points per doubling).
 */
export function impactOf(
  severity: Severity,
  observed: number,
  threshold: number,
  comparison: Evidence["comparison"],
): number {
  const over =
    comparison === "<" || comparison === "<="
      ? threshold / Math.max(observed, 1e-9)
      : observed / Math.max(threshold, 1e-9);
  const extra = Math.max(0, Math.min(19, Math.log2(Math.max(1, over)) * 5));
  return Math.round(SEVERITY_BASE[severity] + extra);
}

export function evidence(
  ctx: RuleContext,
  e: Omit<Evidence, "window" | "series"> & { points?: readonly Point[] },
): Evidence {
  const { points, ...rest } = e;
  return { ...rest, window: ctx.window, ...(points && points.length > 0 ? { series: chartSeries(points) } : {}) };
}

export function series(ctx: RuleContext, metric: TargetMetric): Point[] {
  return metricSeries(metric, ctx.input.window.samples, {
    remoteIps: ctx.input.window.remoteIps,
    shmTotalBytes: ctx.input.settings?.shmTotalBytes ?? null,
  });
}

export function enoughSamples(ctx: RuleContext, points: readonly Point[]): boolean {
  return points.length >= ctx.t.minSamples;
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms: a process on this host, never a remote client. */
export function isLoopback(ip: string): boolean {
  const v = ip.toLowerCase();
  return v.startsWith("127.") || v === "::1" || v === "0:0:0:0:0:0:0:1" || v.startsWith("::ffff:127.");
}

/** Fills defaults every draft shares. */
export function draft(
  d: Omit<SuggestionDraft, "caveats" | "snippets" | "arithmetic"> &
    Partial<Pick<SuggestionDraft, "caveats" | "snippets" | "arithmetic">>,
): SuggestionDraft {
  return { caveats: [], snippets: [], arithmetic: [], ...d };
}

/** "15 min", "an hour", "two hours", "3 hours" for a verification text. */
export function windowText(minutes: number): string {
  if (minutes === 60) return "an hour";
  if (minutes === 120) return "two hours";
  return minutes % 60 === 0 ? `${minutes / 60} hours` : `${minutes} min`;
}

/**
 * A draft's verification with the window in effect: the app's override (ctx.verifyWindowMinutes)
 * when it sets one, else the rule's own minimum; `how` may phrase that window (windowText). A
 * minimum of 0 means nothing to measure and stays 0.
 */
export function describeVerification(
  ctx: RuleContext,
  v: Omit<SuggestionVerification, "how"> & { how: string | ((window: string) => string) },
): SuggestionVerification {
  const minutes =
    v.minimumWindowMinutes > 0 && ctx.verifyWindowMinutes !== null ? ctx.verifyWindowMinutes : v.minimumWindowMinutes;
  return {
    metric: v.metric,
    direction: v.direction,
    minimumWindowMinutes: minutes,
    how: typeof v.how === "string" ? v.how : v.how(windowText(minutes)),
  };
}

export function minutes(ctx: RuleContext): number {
  return (ctx.input.window.to.getTime() - ctx.input.window.from.getTime()) / 60_000;
}

/** The systemd unit most installs use for a client (the operator adjusts the name). */
export function unitNameOf(ctx: RuleContext): string {
  switch (ctx.client.kind) {
    case "hived":
      return "hived.service";
    case "steemd":
      return "steemd.service";
    case "nethermind":
      return "nethermind.service";
    case "geth":
      return "geth.service";
    case "substrate":
      return "polkadot.service";
    case "sidecar":
      return "substrate-api-sidecar.service";
    default:
      return "rpc-node.service";
  }
}

export function configValue(ctx: RuleContext, ...keys: string[]): string | null {
  const cfg = ctx.input.settings?.clientConfig;
  if (!cfg) return null;
  for (const k of keys) {
    const v = cfg[k];
    if (typeof v === "string") return v;
  }
  return null;
}

/** A positive integer from the reported client config, else the documented default. */
export function configNumber(ctx: RuleContext, fallback: number, ...keys: string[]): number {
  const raw = configValue(ctx, ...keys);
  const n = raw === null ? NaN : Number(raw.trim());
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
