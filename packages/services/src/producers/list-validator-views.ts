import {
  listNodesAroundMiss,
  listValidatorOfflineReports,
  listValidatorStatuses,
  readValidatorHistory,
  type ValidatorOfflineReportRow,
  type ValidatorStatusRow,
} from "@rpcpulse/db/producers";
import { type SqlClient } from "@rpcpulse/db/sql";
import { findNetwork } from "@rpcpulse/domain";
import type { ServiceContext } from "../context.js";
import { explainValidatorTrouble, validatorEvidenceWindow, type ValidatorExplanation } from "./explain-validator.js";
import { describeValidatorProblems, pickValidatorTrigger, type ValidatorView } from "./validator-view.js";

/** The advisor's explanation of a validator's trouble against the organization's nodes on its network. */
async function explainValidator(
  sql: SqlClient,
  organizationId: string,
  v: ValidatorStatusRow,
  newestOffline: ValidatorOfflineReportRow | undefined,
): Promise<ValidatorExplanation | null> {
  const trigger = pickValidatorTrigger(v, newestOffline);
  if (!trigger) return null;
  const network = findNetwork(v.network);
  const nodes = await listNodesAroundMiss(sql, {
    organizationId,
    network: v.network,
    ...validatorEvidenceWindow(trigger, v.network),
  });
  return explainValidatorTrouble(nodes, {
    trigger,
    account: v.account,
    networkName: network?.name ?? v.network,
    blockIntervalMs: network?.blockIntervalMs ?? 6_000,
    keysOnNode: v.latest?.keysOnNode ?? null,
    keysNode: v.latest?.keysNode ?? null,
    sessionKeys: v.latest?.sessionKeys ?? null,
  });
}

/** The organization's validators with their latest reading, offline reports of 24 h and a 24 h history. */
export async function listValidatorViews(
  deps: { sql: SqlClient },
  ctx: ServiceContext,
  options: { ids?: string[]; now?: Date } = {},
): Promise<ValidatorView[]> {
  const now = options.now ?? new Date();
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const rows = await listValidatorStatuses(deps.sql, {
    organizationIds: [ctx.organizationId],
    ...(options.ids ? { ids: options.ids } : {}),
  });
  const offline = await listValidatorOfflineReports(deps.sql, { producerIds: rows.map((r) => r.id), since: dayAgo });
  const views: ValidatorView[] = [];
  for (const v of rows) {
    const own = offline.filter((o) => o.producerId === v.id);
    const history = await readValidatorHistory(deps.sql, {
      producerId: v.id,
      from: dayAgo,
      to: now,
      bucketSeconds: 3600,
    });
    const l = v.latest;
    views.push({
      id: v.id,
      kind: "validator",
      network: v.network,
      account: v.account,
      ...describeValidatorProblems(v, own.length),
      observedAt: l?.observedAt.toISOString() ?? null,
      source: l?.source ?? null,
      headBlock: l?.headBlock ?? null,
      activeEra: l?.activeEra ?? null,
      eraProgress: l ? Math.round(l.eraProgress * 1000) / 1000 : null,
      status: l?.status ?? null,
      leftSetAt: l?.leftSetAt?.toISOString() ?? null,
      eraPoints: l?.eraPoints ?? null,
      medianPoints: l?.medianPoints ?? null,
      setSize: l?.setSize ?? null,
      commissionPercent:
        l?.commissionPpb === null || l?.commissionPpb === undefined ? null : l.commissionPpb / 10_000_000,
      blocked: l?.blocked ?? null,
      sessionKeys: l?.sessionKeys ?? null,
      keysOnNode: l?.keysOnNode ?? null,
      keysNode: l?.keysNode ?? null,
      pendingPayoutEras: l?.pendingPayoutEras ?? [],
      pendingPayoutPlanck: l?.pendingPayoutPlanck ?? "0",
      error: v.error?.message ?? null,
      recentOffline: own.map((o) => ({ block: o.block, era: o.era, detectedAt: o.detectedAt.toISOString() })),
      history: history.map((h) => ({
        bucket: h.bucket.toISOString(),
        era: h.era,
        eraPoints: h.eraPoints,
        medianPoints: h.medianPoints,
        inActiveSet: h.inActiveSet,
      })),
      explanation: await explainValidator(deps.sql, ctx.organizationId, v, own[0]),
    });
  }
  return views;
}
