import { compareBeforeAfter } from "@rpcpulse/advisor";
import {
  ADVISOR_SERIES_METRICS,
  applySuggestionPlan,
  getAdvisorMetricSeries,
  listAppliedSuggestionRows,
  type AdvisorMetricPoint,
  type AdvisorSeriesMetric,
  type SuggestionPlanStep,
  type SuggestionRow,
} from "@rpcpulse/db/advisor";
import type { AdvisorDeps } from "./evaluate-node-advice.js";
import { readStoredDraft, type StoredVerification } from "./stored-draft.js";

export interface VerificationTiming {
  /**
   * Overrides every rule's minimumWindowMinutes when set (demo and end-to-end runs use a minute
   * or two); production leaves it unset and each rule's own minimum applies.
   */
  windowMinutesOverride?: number;
  /** Longest before/after window compared (default 4 × the minimum). */
  maxWindowFactor?: number;
  /** An insufficient-data result is retried at most this often (default 1 min). */
  retryAfterMinutes?: number;
}

export interface VerificationOutcome {
  checked: number;
  verified: number;
  notEffective: number;
  insufficient: number;
}

const MAX_CHART_POINTS = 240;

function isSeriesMetric(metric: string): metric is AdvisorSeriesMetric {
  return (ADVISOR_SERIES_METRICS as readonly string[]).includes(metric);
}

/** Keep at most `max` points for the chart (evenly spaced; first and last kept). */
function thin(points: readonly AdvisorMetricPoint[], max = MAX_CHART_POINTS) {
  const step = Math.max(1, Math.ceil(points.length / max));
  const kept = points.filter((_, i) => i % step === 0 || i === points.length - 1);
  return kept.map((p) => ({ time: p.time.toISOString(), value: p.value }));
}

/**
 * Verify one applied suggestion: once `minimum` minutes of "after" data exist, compare the target
 * metric after the change with the same length before it (compareBeforeAfter) and decide verified
 * (helped) or not_effective (no effect, hurt). Insufficient data keeps it applied, with the result
 * stored, and is retried later. Returns the plan step, or null when it is not due yet.
 */
export async function planVerification(
  deps: AdvisorDeps,
  row: SuggestionRow,
  now: Date,
  timing: VerificationTiming = {},
): Promise<SuggestionPlanStep | null> {
  if (row.state !== "applied" || !row.appliedAt) return null;
  const draft = readStoredDraft(row.draft);
  const minimum = timing.windowMinutesOverride ?? draft.verification.minimumWindowMinutes;
  const minimumMs = Math.max(1, minimum) * 60_000;
  const sinceApplied = now.getTime() - row.appliedAt.getTime();
  if (sinceApplied < minimumMs) return null;
  const metric = draft.verification.metric;
  const windowMs = Math.min(sinceApplied, minimumMs * (timing.maxWindowFactor ?? 4));
  const applied = row.appliedAt.getTime();
  const before = { from: new Date(applied - windowMs), to: new Date(applied) };
  const after = { from: new Date(applied), to: new Date(applied + windowMs) };
  const [b, a] = isSeriesMetric(metric)
    ? await Promise.all([
        getAdvisorMetricSeries(deps.sql, { nodeId: row.nodeId, metric, ...before }),
        getAdvisorMetricSeries(deps.sql, { nodeId: row.nodeId, metric, ...after }),
      ])
    : [
        { resolution: "raw" as const, points: [] },
        { resolution: "raw" as const, points: [] },
      ];
  const result = compareBeforeAfter(
    b.points.map((p) => p.value),
    a.points.map((p) => p.value),
    draft.verification.direction,
  );
  const verification: StoredVerification = {
    result,
    metric,
    direction: draft.verification.direction,
    appliedAt: row.appliedAt.toISOString(),
    windowMinutes: Math.round(windowMs / 60_000),
    resolution: b.resolution === "1m" || a.resolution === "1m" ? "1m" : "raw",
    before: { from: before.from.toISOString(), to: before.to.toISOString(), points: thin(b.points) },
    after: { from: after.from.toISOString(), to: after.to.toISOString(), points: thin(a.points) },
    checkedAt: now.toISOString(),
  };
  if (result.verdict === "insufficient-data") {
    return {
      op: "update",
      id: row.id,
      expectedState: "applied",
      fields: { verification, verificationCheckedAt: now },
    };
  }
  const toState = result.verdict === "helped" ? "verified" : "not_effective";
  const pct =
    result.beforeMedian && result.change !== null
      ? ` (${Math.round((result.change / Math.abs(result.beforeMedian)) * 100)} %)`
      : "";
  return {
    op: "update",
    id: row.id,
    expectedState: "applied",
    fields: { state: toState, stateChangedAt: now, verifiedAt: now, verification, verificationCheckedAt: now },
    event: {
      fromState: "applied",
      toState,
      actor: "system",
      reason: `${metric} ${result.verdict}: median ${fmt(result.beforeMedian)} → ${fmt(result.afterMedian)}${pct}, 95 % CI of the shift [${fmt(result.ciLow)}, ${fmt(result.ciHigh)}]`,
      at: now,
    },
  };
}

function fmt(v: number | null): string {
  if (v === null) return "n/a";
  const abs = Math.abs(v);
  return abs >= 100 ? v.toFixed(0) : abs >= 1 ? v.toFixed(1) : v.toPrecision(2);
}

/** The worker's verification pass: applied suggestions due a check, at most `limit`. */
export async function verifyAppliedSuggestions(
  deps: AdvisorDeps,
  input: { now: Date; limit: number },
  timing: VerificationTiming = {},
): Promise<VerificationOutcome> {
  const retryMs = (timing.retryAfterMinutes ?? 1) * 60_000;
  const minimumOverride = timing.windowMinutesOverride;
  const rows = await listAppliedSuggestionRows(deps.prisma, {
    // The smallest possible minimum; planVerification skips the ones not yet due.
    appliedBefore: new Date(input.now.getTime() - Math.max(1, minimumOverride ?? 1) * 60_000),
    checkedBefore: new Date(input.now.getTime() - retryMs),
    limit: input.limit,
  });
  const outcome: VerificationOutcome = { checked: 0, verified: 0, notEffective: 0, insufficient: 0 };
  for (const row of rows) {
    const step = await planVerification(deps, row, input.now, timing);
    if (!step) {
      // Not due yet (its rule's window is longer): note the look so the next run rotates past it.
      await applySuggestionPlan(deps.prisma, [
        { op: "update", id: row.id, expectedState: "applied", fields: { verificationCheckedAt: input.now } },
      ]);
      continue;
    }
    outcome.checked++;
    await applySuggestionPlan(deps.prisma, [step]);
    if (step.op !== "update") continue;
    if (step.fields.state === "verified") outcome.verified++;
    else if (step.fields.state === "not_effective") outcome.notEffective++;
    else outcome.insufficient++;
  }
  return outcome;
}
