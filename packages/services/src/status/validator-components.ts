import {
  listValidatorOfflineReports,
  listValidatorStatuses,
  type ValidatorOfflineReportRow,
  type ValidatorStatus,
  type ValidatorStatusRow,
} from "@rpcpulse/db/producers";
import { type SqlClient } from "@rpcpulse/db/sql";
import { FRESH_READING_MS } from "../alerting/measure-producers.js";
import { LOW_POINTS_SHARE, MIN_ERA_PROGRESS } from "../producers/validator-view.js";
import type { ComponentState } from "./component-state.js";

/**
 * Validator components of status pages (producers of kind 'validator' listed by a component of kind
 * 'producer'): what the public page says about a Polkadot/Kusama stash from validator_latest and
 * validator_offline_reports. Chain facts only: in the active set or not, era points against the set's
 * median, offline reports with their blocks, whether the organization's nodes hold the session keys
 * (yes/no, never which node or which source the worker read).
 *
 * State:
 *  - unknown:      never read, or the last read is older than 10 minutes (FRESH_READING_MS);
 *  - major_outage: not in the active set (waiting or chilled: it neither validates nor earns), or an
 *                  offline report in the last hour (OFFLINE_OUTAGE_MS: im-online found no heartbeat and
 *                  no authored block in a whole session);
 *  - degraded:     era points below half the set's median once a quarter of the era has passed
 *                  (LOW_POINTS_SHARE, MIN_ERA_PROGRESS, as the alert rule), or none of the
 *                  organization's nodes holds the on-chain session keys;
 *  - operational:  otherwise. Offline reports of the last 7 days are listed either way.
 */

export const OFFLINE_OUTAGE_MS = 60 * 60_000;
export const OFFLINE_SHOWN_MS = 7 * 86_400_000;
const OFFLINE_SHOWN = 5;

export interface PublicOfflineReport {
  block: number;
  era: number;
  detectedAt: Date;
}

export interface PublicValidator {
  status: ValidatorStatus;
  inActiveSet: boolean;
  activeEra: number;
  /** Share of the era elapsed, 0..1. */
  eraProgress: number;
  eraPoints: number;
  medianPoints: number;
  /** Era points / the set's median; null early in the era, out of the set, or with an idle set. */
  pointsShare: number | null;
  lowPoints: boolean;
  /** When the stash was seen leaving the active set (null while in it). */
  leftSetAt: Date | null;
  /** false: none of the organization's nodes holds the on-chain session keys; null: not known. */
  keysOnNode: boolean | null;
  /** Offline reports of the last 7 days, newest first (at most 5). */
  offlineReports: PublicOfflineReport[];
}

/** A validator component's public facts and state (see file comment). Pure. */
export function deriveValidatorComponent(
  v: ValidatorStatusRow,
  reports: readonly ValidatorOfflineReportRow[],
  now: Date,
): { validator: PublicValidator | null; state: ComponentState; producing: boolean } {
  const l = v.latest;
  const fresh = l !== null && now.getTime() - l.observedAt.getTime() <= FRESH_READING_MS;
  const own = reports.filter((r) => r.producerId === v.id);
  if (l === null) return { validator: null, state: "unknown", producing: false };
  const inActiveSet = l.status === "active";
  const comparable = inActiveSet && l.eraProgress >= MIN_ERA_PROGRESS && l.medianPoints > 0;
  const pointsShare = comparable ? l.eraPoints / l.medianPoints : null;
  const lowPoints = pointsShare !== null && pointsShare < LOW_POINTS_SHARE;
  const offlineLately = own.some((r) => now.getTime() - r.detectedAt.getTime() <= OFFLINE_OUTAGE_MS);
  const state: ComponentState = !fresh
    ? "unknown"
    : !inActiveSet || offlineLately
      ? "major_outage"
      : lowPoints || l.keysOnNode === false
        ? "degraded"
        : "operational";
  return {
    state,
    producing: fresh && inActiveSet && !offlineLately,
    validator: {
      status: l.status,
      inActiveSet,
      activeEra: l.activeEra,
      eraProgress: l.eraProgress,
      eraPoints: l.eraPoints,
      medianPoints: l.medianPoints,
      pointsShare,
      lowPoints,
      leftSetAt: l.leftSetAt,
      keysOnNode: l.keysOnNode,
      offlineReports: own
        .slice(0, OFFLINE_SHOWN)
        .map((r) => ({ block: r.block, era: r.era, detectedAt: r.detectedAt })),
    },
  };
}

/** The latest readings and recent offline reports of these validators, by producer id. */
export async function loadValidatorReadings(
  sql: SqlClient,
  ids: readonly string[],
  now: Date,
): Promise<Map<string, { row: ValidatorStatusRow; reports: ValidatorOfflineReportRow[] }>> {
  const out = new Map<string, { row: ValidatorStatusRow; reports: ValidatorOfflineReportRow[] }>();
  if (ids.length === 0) return out;
  const [rows, reports] = await Promise.all([
    listValidatorStatuses(sql, { ids }),
    listValidatorOfflineReports(sql, {
      producerIds: ids,
      since: new Date(now.getTime() - OFFLINE_SHOWN_MS),
      limit: OFFLINE_SHOWN,
    }),
  ]);
  for (const row of rows) out.set(row.id, { row, reports: reports.filter((r) => r.producerId === row.id) });
  return out;
}
