import { AppError } from "@rpcpulse/config";
import {
  countProducers,
  insertProducer,
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
import {
  explainValidatorTrouble,
  validatorEvidenceWindow,
  type ValidatorExplanation,
  type ValidatorTrigger,
} from "./explain-validator.js";
import { checkSs58Address } from "./parse-validator.js";

/** Register an organization's Polkadot/Kusama validator stashes and build the fleet page's validator cards. */

/** Era points below this share of the set's median (after MIN_ERA_PROGRESS of the era) read as trouble. */
export const LOW_POINTS_SHARE = 0.5;
/** Share of the era that must have passed before points are compared (early in an era they are noise). */
export const MIN_ERA_PROGRESS = 0.25;
export const MAX_VALIDATOR_PRODUCERS = 50;

export interface ValidatorOfflineView {
  block: number;
  era: number;
  detectedAt: string;
}

export interface ValidatorView {
  id: string;
  kind: "validator";
  network: string;
  /** SS58 stash address. */
  account: string;
  state: "ok" | "trouble" | "unknown";
  problems: string[];
  observedAt: string | null;
  source: string | null;
  headBlock: number | null;
  activeEra: number | null;
  /** Share of the active era elapsed, 0-1. */
  eraProgress: number | null;
  status: "active" | "waiting" | "inactive" | null;
  leftSetAt: string | null;
  eraPoints: number | null;
  medianPoints: number | null;
  setSize: number | null;
  /** Percent (Perbill / 10^7). */
  commissionPercent: number | null;
  blocked: boolean | null;
  sessionKeys: string | null;
  keysOnNode: boolean | null;
  keysNode: string | null;
  pendingPayoutEras: number[];
  pendingPayoutPlanck: string;
  error: string | null;
  recentOffline: ValidatorOfflineView[];
  /** Era points and the set's median at the end of each hour over 24 h. */
  history: Array<{ bucket: string; era: number; eraPoints: number; medianPoints: number; inActiveSet: boolean }>;
  /**
   * The advisor's reading of the newest offline report (or of leaving the set / low era points while the
   * substrate node behind it shows trouble) against the organization's own nodes; null: nothing to explain.
   */
  explanation: ValidatorExplanation | null;
}

/** Era points below LOW_POINTS_SHARE of the median once MIN_ERA_PROGRESS of the era has passed, in the set. */
function pointsShareIfLow(l: NonNullable<ValidatorStatusRow["latest"]>): number | null {
  const comparable = l.status === "active" && l.eraProgress >= MIN_ERA_PROGRESS && l.medianPoints > 0;
  return comparable && l.eraPoints < l.medianPoints * LOW_POINTS_SHARE ? l.eraPoints / l.medianPoints : null;
}

/** What the advisor explains: the newest offline report, else being out of the set, else low points. */
export function pickValidatorTrigger(
  v: ValidatorStatusRow,
  newestOffline: ValidatorOfflineReportRow | undefined,
): ValidatorTrigger | null {
  if (newestOffline) {
    return { kind: "offline", block: newestOffline.block, era: newestOffline.era, at: newestOffline.detectedAt };
  }
  const l = v.latest;
  if (!l) return null;
  if (l.status === "waiting" || l.status === "inactive") {
    return { kind: "left-set", status: l.status, at: l.leftSetAt ?? l.observedAt };
  }
  const share = pointsShareIfLow(l);
  return share === null ? null : { kind: "low-points", pointsShare: share, at: l.observedAt };
}

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

/** The card's verdict in words. Pure. */
export function describeValidatorProblems(
  v: ValidatorStatusRow,
  recentOffline: number,
): { state: ValidatorView["state"]; problems: string[] } {
  const l = v.latest;
  if (!l) return { state: "unknown", problems: v.error ? [v.error.message] : ["Not read yet."] };
  const problems: string[] = [];
  if (l.status === "waiting") problems.push("Not in the active set (waiting: not elected this era).");
  if (l.status === "inactive") problems.push("Not a validator: no validator preferences on chain (chilled?).");
  const lowShare = pointsShareIfLow(l);
  if (lowShare !== null) {
    problems.push(
      `Era points ${l.eraPoints} are ${Math.round(lowShare * 100)} % of the set's median ${Math.round(l.medianPoints)}.`,
    );
  }
  if (recentOffline > 0) problems.push(`Reported offline ${recentOffline} time(s) in the last 24 h.`);
  if (l.keysOnNode === false) problems.push("None of your nodes holds the on-chain session keys.");
  if (l.blocked) problems.push("Blocks new nominations.");
  if (l.pendingPayoutEras.length > 0) problems.push(`Unclaimed payouts for ${l.pendingPayoutEras.length} era(s).`);
  if (v.error) problems.push(`Last read failed: ${v.error.message}`);
  return { state: problems.length > 0 ? "trouble" : "ok", problems };
}

/** Validate and store a stash (called by registerProducer for Polkadot/Kusama networks). */
export async function insertValidatorProducer(
  deps: { sql: SqlClient },
  ctx: ServiceContext,
  input: { network: string; stash: string },
): Promise<string> {
  const problem = checkSs58Address(input.stash, input.network);
  if (problem) throw new AppError("VALIDATION", problem, { details: { field: "account" } });
  if ((await countProducers(deps.sql, ctx.organizationId)) >= MAX_VALIDATOR_PRODUCERS) {
    throw new AppError("VALIDATION", `At most ${MAX_VALIDATOR_PRODUCERS} producers per organization.`);
  }
  const row = await insertProducer(deps.sql, {
    organizationId: ctx.organizationId,
    network: input.network,
    kind: "validator",
    account: input.stash,
  });
  if (!row) throw new AppError("VALIDATION", "Unknown network.", { details: { field: "network" } });
  return row.id;
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
