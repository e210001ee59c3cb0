import { type ValidatorOfflineReportRow, type ValidatorStatusRow } from "@rpcpulse/db/producers";
import { type ValidatorExplanation, type ValidatorTrigger } from "./explain-validator.js";

/** The fleet page's validator cards (an organization's Polkadot/Kusama stashes): their shape and verdict. */

/** Era points below this share of the set's median (after MIN_ERA_PROGRESS of the era) read as trouble. */
export const LOW_POINTS_SHARE = 0.5;
/** Share of the era that must have passed before points are compared (early in an era they are noise). */
export const MIN_ERA_PROGRESS = 0.25;

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
