import { AppError } from "@rpcpulse/config";
import { z } from "zod";
import { getStorageMode, type StorageMode } from "../migrate/storage-mode.js";
import type { SqlClient } from "../sql/sql-client.js";
import { dbNumber } from "../sql/row-values.js";
import { pruneBeaconSamples } from "../fleet/beacon-samples.js";

const MINUTE = 60_000;
const HOUR = 3_600_000;
const floorTo = (t: number, step: number) => Math.floor(t / step) * step;
const ceilTo = (t: number, step: number) => Math.ceil(t / step) * step;

export const RefreshRollupsParams = z
  .object({ from: z.coerce.date(), to: z.coerce.date() })
  .refine((v) => v.from.getTime() < v.to.getTime(), "from must be before to");
export type RefreshRollupsParams = z.input<typeof RefreshRollupsParams>;

export interface RollupRefreshReport {
  mode: StorageMode;
  /** Window actually materialized per resolution (buckets entirely inside [from, min(to, now))). */
  windows: { "1m": { from: Date; to: Date } | null; "1h": { from: Date; to: Date } | null };
  /** Plain mode: bucket rows written per rollup. Timescale mode: null (the engine does not say). */
  rollups: { rollup: string; buckets: number | null }[];
}

/**
 * Materialize the rollups (node_samples_1m/1h, probe_results_1m/1h) for the buckets that lie
 * entirely inside [from, min(to, now)): 1-minute buckets from raw rows, then 1-hour buckets from
 * the 1-minute ones. Idempotent: re-running over the same window rewrites the same values.
 *
 * Worker contract: call every minute with { from: now - 3h, to: now } (catches late samples), and
 * every hour with a window covering at least the previous 2 hours. Plain mode needs these calls;
 * Timescale mode has refresh policies doing the same, and the call just forces a refresh
 * (needs a session outside a transaction: a pg Pool or PGlite, not inside BEGIN).
 */
export async function refreshRollups(
  sql: SqlClient,
  params: RefreshRollupsParams,
  now = new Date(),
): Promise<RollupRefreshReport> {
  const p = RefreshRollupsParams.parse(params);
  const from = p.from.getTime();
  const end = Math.min(p.to.getTime(), now.getTime());
  const window = (step: number) => {
    const a = ceilTo(from, step);
    const b = floorTo(end, step);
    return a < b ? { from: new Date(a), to: new Date(b) } : null;
  };
  const windows = { "1m": window(MINUTE), "1h": window(HOUR) };
  const mode = await getStorageMode(sql);
  const report: RollupRefreshReport = { mode, windows, rollups: [] };
  if (mode === "plain") {
    const { rows } = await sql.query("SELECT rollup, buckets FROM rpcpulse_refresh_rollups($1, $2)", [
      p.from,
      new Date(end),
    ]);
    report.rollups = rows.map((r) => {
      const row = z.object({ rollup: z.string(), buckets: dbNumber }).parse(r);
      return { rollup: row.rollup, buckets: row.buckets };
    });
    return report;
  }
  for (const [resolution, views] of [
    ["1m", ["node_samples_1m", "probe_results_1m"]],
    ["1h", ["node_samples_1h", "probe_results_1h"]],
  ] as const) {
    const w = windows[resolution];
    if (!w) continue;
    for (const view of views) {
      await sql.query("CALL refresh_continuous_aggregate($1::regclass, $2::timestamptz, $3::timestamptz)", [
        view,
        w.from,
        w.to,
      ]);
      report.rollups.push({ rollup: view, buckets: null });
    }
  }
  return report;
}

export interface MaintenanceAction {
  action: "create_partition" | "drop_partition" | "delete_expired" | "delete_orphans" | "policies";
  relation: string;
  detail: string;
}

export interface StorageMaintenanceReport {
  mode: StorageMode;
  actions: MaintenanceAction[];
}

const MaintenanceRow = z.object({
  action: z.enum(["create_partition", "drop_partition", "delete_expired"]),
  relation: z.string(),
  detail: z.string(),
});

/**
 * Housekeeping the worker runs (hourly is plenty; it is idempotent):
 * - plain mode: create the partitions needed from yesterday to a few days (raw) / weeks (rollups)
 *   after `now`, drop partitions past their retention (storage_settings), delete expired rows that
 *   landed in the default partitions;
 * - timescale mode: nothing to do for partitions (TimescaleDB jobs handle chunks, compression,
 *   retention and refresh), reported as one "policies" action;
 * - both: delete node_latest rows of nodes that no longer exist.
 */
export async function runStorageMaintenance(sql: SqlClient, now: Date = new Date()): Promise<StorageMaintenanceReport> {
  const mode = await getStorageMode(sql);
  const actions: MaintenanceAction[] = [];
  if (mode === "plain") {
    const { rows } = await sql.query("SELECT action, relation, detail FROM rpcpulse_storage_maintenance($1)", [now]);
    actions.push(...rows.map((r) => MaintenanceRow.parse(r)));
  } else {
    actions.push({
      action: "policies",
      relation: "*",
      detail: "chunks, compression, retention and refresh run as TimescaleDB jobs",
    });
  }
  const orphans = await sql.query(
    `WITH deleted AS (
       DELETE FROM node_latest l WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = l.node_id) RETURNING 1
     ) SELECT count(*)::integer AS deleted FROM deleted`,
  );
  const deleted = z.object({ deleted: z.number() }).parse(orphans.rows[0]).deleted;
  if (deleted > 0)
    actions.push({ action: "delete_orphans", relation: "node_latest", detail: `${deleted} rows of deleted nodes` });
  const beacon = await pruneBeaconSamples(sql, now);
  if (beacon.orphans > 0)
    actions.push({
      action: "delete_orphans",
      relation: "node_beacon_latest",
      detail: `${beacon.orphans} rows of deleted nodes`,
    });
  return { mode, actions };
}

export const StorageSettings = z.object({
  rawRetentionDays: z.number().int().min(1).max(3650),
  rollup1mRetentionDays: z.number().int().min(1).max(3650),
  rollup1hRetentionDays: z.number().int().min(1).max(36500),
  compressAfterDays: z.number().int().min(1).max(3650),
});
export type StorageSettings = z.infer<typeof StorageSettings>;

const KEYS = {
  rawRetentionDays: "raw_retention",
  rollup1mRetentionDays: "rollup_1m_retention",
  rollup1hRetentionDays: "rollup_1h_retention",
  compressAfterDays: "compress_after",
} as const satisfies Record<keyof StorageSettings, string>;

export async function getStorageSettings(sql: SqlClient): Promise<StorageSettings> {
  const { rows } = await sql.query(
    "SELECT key, (extract(epoch FROM value) / 86400)::float8 AS days FROM storage_settings",
  );
  const byKey = new Map(
    rows.map((r) => z.object({ key: z.string(), days: dbNumber }).parse(r)).map((r) => [r.key, r.days]),
  );
  return StorageSettings.parse(
    Object.fromEntries(Object.entries(KEYS).map(([field, key]) => [field, Math.round(byKey.get(key) ?? NaN)])),
  );
}

/**
 * Change retention / compression. Rollups must be kept at least as long as what they are built
 * from (raw <= 1m <= 1h), else a rollup refresh could meet missing raw data. Timescale mode
 * re-creates the policies at once; plain mode applies them at the next runStorageMaintenance().
 */
export async function setStorageSettings(sql: SqlClient, changes: Partial<StorageSettings>): Promise<StorageSettings> {
  const patch = StorageSettings.partial().parse(changes);
  const next = { ...(await getStorageSettings(sql)), ...patch };
  if (!(
    next.rawRetentionDays <= next.rollup1mRetentionDays && next.rollup1mRetentionDays <= next.rollup1hRetentionDays
  )) {
    throw new AppError("VALIDATION", "retention must satisfy raw <= 1-minute rollups <= 1-hour rollups", {
      details: next,
    });
  }
  for (const [field, days] of Object.entries(patch)) {
    await sql.query(
      "UPDATE storage_settings SET value = make_interval(days => $2), updated_at = now() WHERE key = $1",
      [KEYS[field as keyof StorageSettings], days],
    );
  }
  if ((await getStorageMode(sql)) === "timescale") await sql.query("SELECT rpcpulse_apply_storage_policies()");
  return next;
}
