import { listNodesDueForAdvice } from "@rpcpulse/db/advisor";
import { type OrgShard } from "@rpcpulse/db/sql";
import { applyAdviceBatch, readAdviceBatch, type AdvisorDeps, type AdvisorTiming } from "./evaluate-node-advice.js";
import {
  verifyAppliedSuggestions,
  type VerificationOutcome,
  type VerificationTiming,
} from "./verify-applied-suggestions.js";

/** Nodes whose inputs are read together (one query per kind of input per batch). */
const EVALUATION_BATCH = 250;

export interface AdvisorSweepSettings extends AdvisorTiming, VerificationTiming {
  /** Nodes evaluated per run at most (least recently evaluated first). */
  batchSize: number;
  /** Applied suggestions checked per run at most. */
  verifyBatchSize: number;
}

export interface AdvisorSweepReport {
  evaluated: number;
  failed: { nodeId: string; error: string }[];
  opened: number;
  updated: number;
  stale: number;
  verification: VerificationOutcome;
  durationMs: number;
}

/**
 * One run of the advisor job: evaluate up to `batchSize` nodes that have samples newer than their
 * last evaluation (nodes without new samples are skipped), then the verification pass. One node's
 * failure is reported and does not stop the others.
 */
export async function runAdvisorSweep(
  deps: AdvisorDeps,
  input: { now: Date; shard?: OrgShard | undefined },
  settings: AdvisorSweepSettings,
): Promise<AdvisorSweepReport> {
  const started = performance.now();
  const due = await listNodesDueForAdvice(deps.sql, { limit: settings.batchSize, shard: input.shard });
  const report: AdvisorSweepReport = {
    evaluated: 0,
    failed: [],
    opened: 0,
    updated: 0,
    stale: 0,
    verification: { checked: 0, verified: 0, notEffective: 0, insufficient: 0 },
    durationMs: 0,
  };
  // Each batch's reads are started before the batch ahead of it is evaluated, so PostgreSQL reads the
  // next windows while the rules run over these.
  const read = (start: number) =>
    readAdviceBatch(deps, { nodes: due.slice(start, start + EVALUATION_BATCH), now: input.now }, settings);
  let next = due.length > 0 ? read(0) : null;
  for (let start = 0; next; start += EVALUATION_BATCH) {
    const batch = await next;
    next = start + EVALUATION_BATCH < due.length ? read(start + EVALUATION_BATCH) : null;
    for (const r of await applyAdviceBatch(deps, batch, settings)) {
      if ("error" in r) {
        report.failed.push(r);
        continue;
      }
      report.evaluated++;
      report.opened += r.created;
      report.updated += r.updated;
      report.stale += r.stale;
    }
  }
  // The verification pass is small and global: shard 0 (or an unsharded run) does it.
  if (!input.shard || input.shard.index === 0)
    report.verification = await verifyAppliedSuggestions(
      deps,
      { now: input.now, limit: settings.verifyBatchSize },
      settings,
    );
  report.durationMs = Math.round(performance.now() - started);
  return report;
}
