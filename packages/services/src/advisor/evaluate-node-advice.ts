import { evaluateNode } from "@rpcpulse/advisor";
import {
  applySuggestionPlan,
  getAdvisorNode,
  getReportedSettings,
  listNodeSuggestionRowsForEvaluation,
  listReportedSettings,
  listSuggestionRowsForEvaluationByNode,
  loadAdvisorWindow,
  loadAdvisorWindows,
  recordAdvisorCursor,
  recordAdvisorCursors,
  type AdvisorNodeRow,
  type AdvisorWindow,
  type PlanOutcome,
  type ReportedSettingsRow,
  type SuggestionRow,
} from "@rpcpulse/db/advisor";
import { type PrismaClient, type SqlClient } from "@rpcpulse/db/sql";
import { toAdvisorInput, toAdvisorOutbound, toAdvisorSettings } from "./advisor-input.js";
import { loadAdvisorBeacon, withBeacon, type AdvisorBeacon } from "./advisor-beacon.js";
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

/** The window an evaluation of `node` at `now` reads: up to its newest sample, `windowMinutes` long. */
function windowOf(node: AdvisorNodeRow, now: Date, timing: AdvisorTiming): { from: Date; to: Date } {
  const to = new Date(Math.max(now.getTime(), node.latestSampleAt.getTime() + 1));
  return { from: new Date(to.getTime() - timing.windowMinutes * 60_000), to };
}

/** What one evaluation read about its node. */
interface NodeAdviceInputs {
  window: AdvisorWindow;
  reported: ReportedSettingsRow | null;
  existing: SuggestionRow[];
  beacon: AdvisorBeacon | null;
}

/** Run the rules over what was read and write the plan in one transaction (the shared second half). */
async function applyNodeAdvice(
  deps: AdvisorDeps,
  node: AdvisorNodeRow,
  inputs: NodeAdviceInputs,
  now: Date,
  timing: AdvisorTiming,
): Promise<NodeEvaluation> {
  const { window, reported, existing, beacon } = inputs;
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
        now,
        clearAfterMs: timing.clearAfterMinutes * 60_000,
      })
    : [];
  const outcome = await applySuggestionPlan(deps.prisma, steps);
  return { nodeId: node.id, drafts: drafts?.length ?? 0, samples: window.samples.length, ...outcome };
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
  const { from, to } = windowOf(node, input.now, timing);
  const [window, reported, existing, beacon] = await Promise.all([
    loadAdvisorWindow(deps.sql, { nodeId: node.id, from, to }),
    getReportedSettings(deps.sql, node.id),
    listNodeSuggestionRowsForEvaluation(deps.prisma, node.id),
    loadAdvisorBeacon(deps.sql, { nodeId: node.id, family: node.apiFamily, from, to }),
  ]);
  const result = await applyNodeAdvice(deps, node, { window, reported, existing, beacon }, input.now, timing);
  await recordAdvisorCursor(deps.sql, { nodeId: node.id, evaluatedUpTo: node.latestSampleAt, evaluatedAt: input.now });
  return result;
}

export type NodeAdviceResult = NodeEvaluation | { nodeId: string; error: string };

/** A batch's inputs, read together (readAdviceBatch); `read` is null when that read failed. */
export interface AdviceBatch {
  nodes: readonly AdvisorNodeRow[];
  now: Date;
  read: {
    windows: Map<string, AdvisorWindow>;
    reported: Map<string, ReportedSettingsRow>;
    existing: Map<string, SuggestionRow[]>;
  } | null;
}

/**
 * The first half of evaluateNodesAdvice: the windows, reported settings and suggestions of the whole
 * batch, one query each. Never rejects (a failed read leaves `read` null), so the sweep can start it
 * ahead of the batch before it.
 */
export async function readAdviceBatch(
  deps: AdvisorDeps,
  input: { nodes: readonly AdvisorNodeRow[]; now: Date },
  timing: AdvisorTiming = DEFAULT_ADVISOR_TIMING,
): Promise<AdviceBatch> {
  const { nodes, now } = input;
  const ids = nodes.map((n) => n.id);
  try {
    const [windows, reported, existing] = await Promise.all([
      loadAdvisorWindows(deps.sql, {
        windows: nodes.map((node) => ({ nodeId: node.id, ...windowOf(node, now, timing) })),
      }),
      listReportedSettings(deps.sql, ids),
      listSuggestionRowsForEvaluationByNode(deps.sql, ids),
    ]);
    return { nodes, now, read: { windows, reported, existing } };
  } catch {
    return { nodes, now, read: null };
  }
}

/**
 * The second half of evaluateNodesAdvice: each node's rules and plan (its own transaction), then the
 * cursors of the nodes evaluated in one statement. After a failed batch read each node is evaluated
 * alone (so a failure stays one node's).
 */
export async function applyAdviceBatch(
  deps: AdvisorDeps,
  batch: AdviceBatch,
  timing: AdvisorTiming = DEFAULT_ADVISOR_TIMING,
): Promise<NodeAdviceResult[]> {
  const { nodes, now, read } = batch;
  const failed = (nodeId: string, error: unknown) => ({
    nodeId,
    error: error instanceof Error ? error.message : String(error),
  });
  const results: NodeAdviceResult[] = [];
  if (!read) {
    for (const node of nodes) {
      try {
        results.push(await evaluateNodeAdvice(deps, { nodeId: node.id, node, now }, timing));
      } catch (error) {
        results.push(failed(node.id, error));
      }
    }
    return results;
  }
  const cursors: { nodeId: string; evaluatedUpTo: Date; evaluatedAt: Date }[] = [];
  for (const node of nodes) {
    try {
      const window = read.windows.get(node.id)!;
      const beacon = await loadAdvisorBeacon(deps.sql, {
        nodeId: node.id,
        family: node.apiFamily,
        from: window.from,
        to: window.to,
      });
      const inputs = {
        window,
        reported: read.reported.get(node.id) ?? null,
        existing: read.existing.get(node.id) ?? [],
        beacon,
      };
      results.push(await applyNodeAdvice(deps, node, inputs, now, timing));
      cursors.push({ nodeId: node.id, evaluatedUpTo: node.latestSampleAt, evaluatedAt: now });
    } catch (error) {
      results.push(failed(node.id, error));
    }
  }
  try {
    await recordAdvisorCursors(deps.sql, cursors);
  } catch (error) {
    // The plans are written: the next run evaluates these nodes again (plans are idempotent), as it
    // would after a failed cursor write of a single evaluation.
    const evaluated = new Set(cursors.map((c) => c.nodeId));
    return results.map((r) => (evaluated.has(r.nodeId) ? failed(r.nodeId, error) : r));
  }
  return results;
}

/**
 * Evaluate several nodes now (the sweep's batch): what evaluateNodeAdvice does for each, but the
 * windows, reported settings and suggestions of the whole batch are read in one query each and the
 * cursors of the nodes evaluated are written in one statement. Each node's plan is still its own
 * transaction, and one node's failure is its own result.
 */
export async function evaluateNodesAdvice(
  deps: AdvisorDeps,
  input: { nodes: readonly AdvisorNodeRow[]; now: Date },
  timing: AdvisorTiming = DEFAULT_ADVISOR_TIMING,
): Promise<NodeAdviceResult[]> {
  return applyAdviceBatch(deps, await readAdviceBatch(deps, input, timing), timing);
}
