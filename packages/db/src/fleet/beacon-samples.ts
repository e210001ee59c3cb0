import { z } from "zod";
import { getStorageMode } from "../migrate/storage-mode.js";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber } from "../sql/row-values.js";

/**
 * The Ethereum consensus client beside a node (migration 0021): beacon_samples (history, a hypertable
 * or a plain table) and node_beacon_latest (newest reading per node). Written by the ingest flush in
 * its transaction; read by the fleet and node pages, the alerts and the advisor.
 */

export type ElCheck = "match" | "hash-mismatch" | "el-ahead" | "el-offline";

/** What one Beacon API reading says (wire group `beacon`) and the own-EL check made of it. */
export interface BeaconReading {
  ok: boolean;
  headSlot: number | null;
  wallSlot: number | null;
  slotsBehind: number | null;
  syncDistance: number | null;
  syncing: boolean | null;
  optimistic: boolean | null;
  elOffline: boolean | null;
  peers: number | null;
  version: string | null;
  execBlock: number | null;
  execHash: string | null;
  /** The execution node's own head in the same sample. */
  elBlock: number | null;
  elCheck: ElCheck | null;
  error: string | null;
}

/** One sample's reading as the flush writes it (time epoch ms). */
export interface BeaconSampleRow extends BeaconReading {
  time: number;
}

const INT4_MAX = 2_147_483_647;
const int4 = (v: number | null) => (v === null ? null : Math.max(-INT4_MAX - 1, Math.min(INT4_MAX, Math.round(v))));

const INSERT_SAMPLES_SQL = `
WITH i AS (INSERT INTO beacon_samples (time, node_id, head_slot, wall_slot, exec_block, slots_behind, sync_distance, peers,
                            ok, syncing, optimistic, el_offline, el_check)
SELECT * FROM unnest($1::timestamptz[], $2::uuid[], $3::bigint[], $4::bigint[], $5::bigint[], $6::int[], $7::int[],
                     $8::int[], $9::bool[], $10::bool[], $11::bool[], $12::bool[], $13::text[])
ON CONFLICT (node_id, time) DO NOTHING RETURNING 1) SELECT count(*)::int AS n FROM i`;

/**
 * Newest reading per node; an older sample never overwrites a newer one. A failed read keeps the last
 * successful head (last_ok_at, last_head_slot) and the last comparable execution-client check.
 */
const UPSERT_LATEST_SQL = `
INSERT INTO node_beacon_latest AS l (node_id, time, ok, head_slot, wall_slot, slots_behind, sync_distance, syncing,
  optimistic, el_offline, peers, version, exec_block, exec_hash, el_block, el_check, el_check_at, error, last_ok_at,
  last_head_slot)
SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::bool[], $4::bigint[], $5::bigint[], $6::int[], $7::int[],
  $8::bool[], $9::bool[], $10::bool[], $11::int[], $12::text[], $13::bigint[], $14::text[], $15::bigint[], $16::text[],
  $17::timestamptz[], $18::text[], $19::timestamptz[], $20::bigint[])
ON CONFLICT (node_id) DO UPDATE SET
  time = EXCLUDED.time, ok = EXCLUDED.ok, head_slot = EXCLUDED.head_slot, wall_slot = EXCLUDED.wall_slot,
  slots_behind = EXCLUDED.slots_behind, sync_distance = EXCLUDED.sync_distance, syncing = EXCLUDED.syncing,
  optimistic = EXCLUDED.optimistic, el_offline = EXCLUDED.el_offline, peers = EXCLUDED.peers,
  version = coalesce(EXCLUDED.version, l.version), exec_block = EXCLUDED.exec_block, exec_hash = EXCLUDED.exec_hash,
  el_block = EXCLUDED.el_block,
  el_check = CASE WHEN EXCLUDED.el_check_at IS NULL THEN l.el_check ELSE EXCLUDED.el_check END,
  el_check_at = coalesce(EXCLUDED.el_check_at, l.el_check_at), error = EXCLUDED.error,
  last_ok_at = coalesce(EXCLUDED.last_ok_at, l.last_ok_at), last_head_slot = coalesce(EXCLUDED.last_head_slot, l.last_head_slot)
WHERE l.time < EXCLUDED.time`;

interface NodeNewest {
  newest: BeaconSampleRow;
  /** Newest successful read and newest comparable execution-client check in the flush. */
  ok: BeaconSampleRow | null;
  checked: BeaconSampleRow | null;
  /** Newest version reported in the flush. */
  version: string | null;
}

function newestPerNode(rows: readonly { nodeId: string; r: BeaconSampleRow }[]): [string, NodeNewest][] {
  const byNode = new Map<string, NodeNewest>();
  const later = (a: BeaconSampleRow | null, b: BeaconSampleRow) => (a === null || b.time > a.time ? b : a);
  for (const { nodeId, r } of rows) {
    const n = byNode.get(nodeId) ?? { newest: r, ok: null, checked: null, version: null };
    n.newest = later(n.newest, r);
    if (r.ok) n.ok = later(n.ok, r);
    if (r.elCheck !== null) n.checked = later(n.checked, r);
    byNode.set(nodeId, n);
  }
  for (const n of byNode.values()) {
    const withVersion = rows.filter((x) => byNode.get(x.nodeId) === n && x.r.version !== null);
    n.version = withVersion.reduce<BeaconSampleRow | null>((a, x) => later(a, x.r), null)?.version ?? null;
  }
  // Node order: a stable lock order across concurrent flushes.
  return [...byNode.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Write the beacon readings of a flush (any nodes): history rows (a replayed batch inserts nothing
 * twice) and the newest reading per node. Call inside the flush's transaction.
 */
export async function writeBeaconSamples(
  sql: SqlClient,
  batches: readonly { nodeId: string; beacon?: readonly BeaconSampleRow[] | null | undefined }[],
): Promise<number> {
  const rows = batches.flatMap((b) => (b.beacon ?? []).map((r) => ({ nodeId: b.nodeId, r })));
  if (rows.length === 0) return 0;
  const col = <T>(pick: (r: BeaconSampleRow) => T) => rows.map((x) => pick(x.r));
  const inserted = await sql.query(INSERT_SAMPLES_SQL, [
    col((r) => new Date(r.time)),
    rows.map((x) => x.nodeId),
    col((r) => r.headSlot),
    col((r) => r.wallSlot),
    col((r) => r.execBlock),
    col((r) => int4(r.slotsBehind)),
    col((r) => int4(r.syncDistance)),
    col((r) => int4(r.peers)),
    col((r) => r.ok),
    col((r) => r.syncing),
    col((r) => r.optimistic),
    col((r) => r.elOffline),
    col((r) => r.elCheck),
  ]);
  const latest = newestPerNode(rows);
  const pick = <T>(f: (n: NodeNewest) => T) => latest.map(([, n]) => f(n));
  await sql.query(UPSERT_LATEST_SQL, [
    latest.map(([id]) => id),
    pick((n) => new Date(n.newest.time)),
    pick((n) => n.newest.ok),
    pick((n) => n.newest.headSlot),
    pick((n) => n.newest.wallSlot),
    pick((n) => int4(n.newest.slotsBehind)),
    pick((n) => int4(n.newest.syncDistance)),
    pick((n) => n.newest.syncing),
    pick((n) => n.newest.optimistic),
    pick((n) => n.newest.elOffline),
    pick((n) => int4(n.newest.peers)),
    pick((n) => n.version),
    pick((n) => n.newest.execBlock),
    pick((n) => n.newest.execHash),
    pick((n) => n.newest.elBlock),
    pick((n) => n.checked?.elCheck ?? null),
    pick((n) => (n.checked ? new Date(n.checked.time) : null)),
    pick((n) => n.newest.error?.slice(0, 500) ?? null),
    pick((n) => (n.ok ? new Date(n.ok.time) : null)),
    pick((n) => n.ok?.headSlot ?? null),
  ]);
  return z.object({ n: z.number() }).parse(inserted.rows[0]).n;
}

export interface NodeBeaconLatest extends BeaconReading {
  nodeId: string;
  time: Date;
  elCheckAt: Date | null;
  lastOkAt: Date | null;
  lastHeadSlot: number | null;
}

const num = dbNumber.nullable();
const LatestRow = z.object({
  node_id: z.string(),
  time: dbDate,
  ok: z.boolean(),
  head_slot: num,
  wall_slot: num,
  slots_behind: num,
  sync_distance: num,
  syncing: z.boolean().nullable(),
  optimistic: z.boolean().nullable(),
  el_offline: z.boolean().nullable(),
  peers: num,
  version: z.string().nullable(),
  exec_block: num,
  exec_hash: z.string().nullable(),
  el_block: num,
  el_check: z.enum(["match", "hash-mismatch", "el-ahead", "el-offline"]).nullable(),
  el_check_at: dbDate.nullable(),
  error: z.string().nullable(),
  last_ok_at: dbDate.nullable(),
  last_head_slot: num,
});

/** Newest consensus-client reading of each of these nodes that has one. */
export async function listNodeBeaconLatest(sql: SqlClient, nodeIds: readonly string[]): Promise<NodeBeaconLatest[]> {
  if (nodeIds.length === 0) return [];
  const { rows } = await sql.query(`SELECT * FROM node_beacon_latest WHERE node_id = ANY($1::uuid[])`, [nodeIds]);
  return rows.map((raw) => {
    const r = LatestRow.parse(raw);
    return {
      nodeId: r.node_id,
      time: r.time,
      ok: r.ok,
      headSlot: r.head_slot,
      wallSlot: r.wall_slot,
      slotsBehind: r.slots_behind,
      syncDistance: r.sync_distance,
      syncing: r.syncing,
      optimistic: r.optimistic,
      elOffline: r.el_offline,
      peers: r.peers,
      version: r.version,
      execBlock: r.exec_block,
      execHash: r.exec_hash,
      elBlock: r.el_block,
      elCheck: r.el_check,
      elCheckAt: r.el_check_at,
      error: r.error,
      lastOkAt: r.last_ok_at,
      lastHeadSlot: r.last_head_slot,
    };
  });
}

export interface BeaconSeriesPoint {
  time: Date;
  ok: boolean;
  headSlot: number | null;
  slotsBehind: number | null;
  syncDistance: number | null;
  peers: number | null;
  syncing: boolean | null;
  optimistic: boolean | null;
  elOffline: boolean | null;
  elCheck: ElCheck | null;
}

const SeriesRow = z.object({
  time: dbDate,
  ok: z.boolean(),
  head_slot: num,
  slots_behind: num,
  sync_distance: num,
  peers: num,
  syncing: z.boolean().nullable(),
  optimistic: z.boolean().nullable(),
  el_offline: z.boolean().nullable(),
  el_check: z.enum(["match", "hash-mismatch", "el-ahead", "el-offline"]).nullable(),
});

/**
 * A node's consensus-client readings in [from, to), time-ordered. With `bucketMs`, one row per bucket:
 * the largest slots behind / sync distance, the smallest peer count, any optimistic / el_offline, the
 * last head slot, and the bucket's last comparable execution-client check (both storage modes: date_bin).
 */
export async function listBeaconSeries(
  sql: SqlClient,
  params: { nodeId: string; from: Date; to: Date; bucketMs?: number },
): Promise<BeaconSeriesPoint[]> {
  const bucket = params.bucketMs && params.bucketMs > 0 ? Math.round(params.bucketMs) : null;
  const { rows } =
    bucket === null
      ? await sql.query(
          `SELECT time, ok, head_slot, slots_behind, sync_distance, peers, syncing, optimistic, el_offline, el_check
           FROM beacon_samples WHERE node_id = $1 AND time >= $2 AND time < $3 ORDER BY time`,
          [params.nodeId, params.from, params.to],
        )
      : await sql.query(
          `SELECT date_bin(make_interval(secs => $4::double precision / 1000), time, timestamptz '2000-01-01') AS time,
                  bool_or(ok) AS ok, max(head_slot) AS head_slot, max(slots_behind) AS slots_behind,
                  max(sync_distance) AS sync_distance, min(peers) AS peers, bool_or(syncing) AS syncing,
                  bool_or(optimistic) AS optimistic, bool_or(el_offline) AS el_offline,
                  (array_agg(el_check ORDER BY time DESC) FILTER (WHERE el_check IS NOT NULL))[1] AS el_check
           FROM beacon_samples WHERE node_id = $1 AND time >= $2 AND time < $3
           GROUP BY 1 ORDER BY 1`,
          [params.nodeId, params.from, params.to, bucket],
        );
  return rows.map((raw) => {
    const r = SeriesRow.parse(raw);
    return {
      time: r.time,
      ok: r.ok,
      headSlot: r.head_slot,
      slotsBehind: r.slots_behind,
      syncDistance: r.sync_distance,
      peers: r.peers,
      syncing: r.syncing,
      optimistic: r.optimistic,
      elOffline: r.el_offline,
      elCheck: r.el_check,
    };
  });
}

/**
 * Storage maintenance: beacon readings past the raw retention (storage_settings raw_retention) go
 * (Timescale: whole chunks; plain: rows), and node_beacon_latest rows of deleted nodes. Returns the
 * latest rows removed.
 */
export async function pruneBeaconSamples(sql: SqlClient, now: Date): Promise<{ orphans: number }> {
  const mode = await getStorageMode(sql);
  const cutoff = `$1::timestamptz - (SELECT value FROM storage_settings WHERE key = 'raw_retention')`;
  if (mode === "timescale") await sql.query(`SELECT drop_chunks('beacon_samples', older_than => ${cutoff})`, [now]);
  else await sql.query(`DELETE FROM beacon_samples WHERE time < ${cutoff}`, [now]);
  const { rows } = await sql.query(
    `WITH d AS (DELETE FROM node_beacon_latest l WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = l.node_id)
     RETURNING 1) SELECT count(*)::int AS n FROM d`,
  );
  return { orphans: z.object({ n: z.number() }).parse(rows[0]).n };
}
