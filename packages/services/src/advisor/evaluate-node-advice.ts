import { evaluateNode } from "@rpcpulse/advisor";
import {
  applySuggestionPlan,
  getAdvisorNode,
  getReportedSettings,
  listNodeSuggestionRowsForEvaluation,
  loadAdvisorWindow,
  recordAdvisorCursor,
  type AdvisorNodeRow,
  type PlanOutcome,
  type PrismaClient,
  type SqlClient,
} from "@rpcpulse/db";
import { toAdvisorInput, toAdvisorOutbound, toAdvisorSettings } from "./advisor-input.js";
import { loadAdvisorBeacon, withBeacon } from "./advisor-beacon.js";
import { planSuggestionChanges } from "./plan-suggestions.js";

export interface AdvisorDeps {
  prisma: PrismaClient;
  sql: SqlClient;
}

export interface AdvisorTiming {
  /** Telemetry window each evaluation reads, ending now (default 30 min). */
  windowMinutes: number;
  /** An open suggestion whose condition is absent this long is auto-closed (default 30 min). */
  clearAfterMinutes: number;
  /**
   * The verification window override (ADVISOR_VERIFY_WINDOW_MINUTES, as VerificationTiming has it):
   * the drafts then state and carry this window instead of each rule's own minimum.
   */
  windowMinutesOverride?: number;
}

export const DEFAULT_ADVISOR_TIMING: AdvisorTiming = { windowMinutes: 30, clearAfterMinutes: 30 };

export interface NodeEvaluation extends PlanOutcome {
  nodeId: string;
  drafts: number;
  samples: number;
}

/**
 * Evaluate one node now (the worker's sweep and tests): load its window and reported settings,
 * run the rules, and write the plan (open / refresh / re-open / applied / auto-close) in one
 * transaction. System work, not tenant-facing: no ServiceContext.
 */
export async function evaluateNodeAdvice(
  deps: AdvisorDeps,
  input: { nodeId: string; now: Date; node?: AdvisorNodeRow },
  timing: AdvisorTiming = DEFAULT_ADVISOR_TIMING,
): Promise<NodeEvaluation> {
  const node = input.node ?? (await getAdvisorNode(deps.sql, input.nodeId));
  if (!node) return { nodeId: input.nodeId, drafts: 0, samples: 0, created: 0, updated: 0, stale: 0 };
  const to = new Date(Math.max(input.now.getTime(), node.latestSampleAt.getTime() + 1));
  const from = new Date(to.getTime() - timing.windowMinutes * 60_000);
  const [window, reported, existing, beacon] = await Promise.all([
    loadAdvisorWindow(deps.sql, { nodeId: node.id, from, to }),
    getReportedSettings(deps.sql, node.id),
    listNodeSuggestionRowsForEvaluation(deps.prisma, node.id),
    loadAdvisorBeacon(deps.sql, { nodeId: node.id, family: node.apiFamily, from, to }),
  ]);
  const settings = toAdvisorSettings(reported);
  // No samples in the window: nothing to say either way (never clears a condition on silence).
  const outbound = toAdvisorOutbound(reported, window);
  const drafts =
    window.samples.length > 0
      ? evaluateNode(withBeacon(toAdvisorInput(node, window, settings, outbound, timing.windowMinutesOverride), beacon))
      : null;
  const steps = drafts
    ? planSuggestionChanges({
        organizationId: node.organizationId,
        nodeId: node.id,
        existing,
        drafts,
        settings,
        now: input.now,
        clearAfterMs: timing.clearAfterMinutes * 60_000,
      })
    : [];
  const outcome = await applySuggestionPlan(deps.prisma, steps);
  await recordAdvisorCursor(deps.sql, { nodeId: node.id, evaluatedUpTo: node.latestSampleAt, evaluatedAt: input.now });
  return { nodeId: node.id, drafts: drafts?.length ?? 0, samples: window.samples.length, ...outcome };
}
