import { z } from "zod";
import type { SqlPool } from "../sql/sql-pool.js";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate } from "../sql/row-values.js";
import { ALL_COLS, type ProbeRankSums } from "./probe-rank-rollups.js";
import { toProbeRankSums, withSumsSession } from "./probe-rank-windows.js";
import { VANTAGE_ORGANIZATION } from "./probe-samples.js";

/**
 * Running totals of the ranking rollups (migration 0026): per range key, endpoint and vantage point,
 * the sums of the rollup rows of a bucket range that moves a little from round to round (a window's
 * settled hours, its settled 5-minute buckets). Each round moves a range by the rows that entered and
 * left it instead of summing it again; a range that cannot be moved exactly is summed again in full.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type ProbeRankTotalTable = "probe_rank_5m" | "probe_rank_1h";

/** One kept range: the rollup rows of `table` with bucket in [from, to) (empty when to <= from). */
export interface ProbeRankTotalRange {
  key: string;
  table: ProbeRankTotalTable;
  from: Date;
  to: Date;
}

/** A range moved further than this (both ends together) is summed again in full instead. */
const MAX_MOVE_MS: Record<ProbeRankTotalTable, number> = { probe_rank_5m: 2 * HOUR_MS, probe_rank_1h: 2 * DAY_MS };

const Cover = z.object({ endpoint_id: z.string(), covered_from: dbDate, covered_to: dbDate });

const COLS = ALL_COLS.join(", ");
const SUMS = ALL_COLS.map((c) => `sum(${c})`).join(", ");

/** The rows of `table` in [a, b) or [c, d) of endpoints $2 (parameters a..d appended to `params`). */
function rowsOf(
  table: string,
  params: unknown[],
  ranges: ReadonlyArray<readonly [number, number]>,
  extra = "",
): string {
  const at = (ms: number) => {
    params.push(new Date(ms));
    return `$${params.length}`;
  };
  const where = ranges.map(([a, b]) => `(bucket >= ${at(a)} AND bucket < ${at(b)})`).join(" OR ");
  return `SELECT endpoint_id, vantage_point_id${extra}, ${COLS} FROM ${table}
    WHERE endpoint_id = ANY($2::uuid[]) AND (${where})`;
}

/**
 * Sum a range in full for these endpoints (their totals replaced). Hours use the closed days inside
 * the range (probe_rank_1d) and the hours around them, as the window sums do.
 */
async function sumInFull(sql: SqlClient, range: ProbeRankTotalRange, ids: readonly string[]): Promise<void> {
  await sql.query(`DELETE FROM probe_rank_totals WHERE range_key = $1 AND endpoint_id = ANY($2::uuid[])`, [
    range.key,
    ids,
  ]);
  const from = range.from.getTime();
  const to = range.to.getTime();
  if (to <= from) return;
  const params: unknown[] = [range.key, ids];
  const dayFrom = Math.ceil(from / DAY_MS) * DAY_MS;
  const dayTo = Math.floor(to / DAY_MS) * DAY_MS;
  const source =
    range.table === "probe_rank_1h" && dayFrom < dayTo
      ? `${rowsOf("probe_rank_1h", params, [
          [from, dayFrom],
          [dayTo, to],
        ])} UNION ALL ${rowsOf("probe_rank_1d", params, [[dayFrom, dayTo]])}`
      : rowsOf(range.table, params, [[from, to]]);
  await sql.query(
    `INSERT INTO probe_rank_totals (range_key, endpoint_id, vantage_point_id, ${COLS})
     SELECT $1, endpoint_id, vantage_point_id, ${SUMS} FROM (${source}) x GROUP BY endpoint_id, vantage_point_id`,
    params,
  );
}

/**
 * Move the totals of endpoints that cover [from0, to0) to [from, to): add the rows that entered
 * (from the old end to the new), subtract those that left (from the old start to the new). Only for
 * to0 <= to and overlapping ranges (see moveable): the rows kept in between are the ones summed before.
 */
async function moveTotals(
  sql: SqlClient,
  range: ProbeRankTotalRange,
  ids: readonly string[],
  old: { from: number; to: number },
): Promise<void> {
  const from = range.from.getTime();
  const to = range.to.getTime();
  if (from === old.from && to === old.to) return;
  const params: unknown[] = [range.key, ids, range.from, range.to];
  const ranges: Array<[number, number]> = [];
  if (from !== old.from) ranges.push([Math.min(from, old.from), Math.max(from, old.from)]);
  if (to !== old.to) ranges.push([old.to, to]);
  // A row inside the new range entered it (+1); any other row of the two edges left it (-1).
  const source = rowsOf(
    range.table,
    params,
    ranges,
    `, CASE WHEN bucket >= $3 AND bucket < $4 THEN 1 ELSE -1 END AS sign`,
  );
  await sql.query(
    `INSERT INTO probe_rank_totals (range_key, endpoint_id, vantage_point_id, ${COLS})
     SELECT $1, endpoint_id, vantage_point_id, ${ALL_COLS.map((c) => `sum(sign * ${c})`).join(", ")}
     FROM (${source}) x GROUP BY endpoint_id, vantage_point_id
     ON CONFLICT (range_key, endpoint_id, vantage_point_id) DO UPDATE SET
       ${ALL_COLS.map((c) => `${c} = probe_rank_totals.${c} + EXCLUDED.${c}`).join(", ")}`,
    params,
  );
}

/**
 * Whether totals covering `old` can be moved to [from, to) exactly: the ranges overlap, the end does
 * not move back (rows between the new and the old end may have been rewritten since: late probes move
 * the rollup pass's cut back, and with it the end of every range), and the move is short.
 */
function moveable(table: ProbeRankTotalTable, old: { from: number; to: number }, from: number, to: number): boolean {
  if (old.to <= old.from || to <= from) return false;
  if (to < old.to || from >= old.to || old.from >= to) return false;
  return Math.abs(from - old.from) + (to - old.to) <= MAX_MOVE_MS[table];
}

/** Bring one range's totals of these endpoints to [from, to) and record what they cover. */
async function advanceRange(sql: SqlClient, range: ProbeRankTotalRange, ids: readonly string[]): Promise<void> {
  const from = range.from.getTime();
  const to = Math.max(from, range.to.getTime());
  const clipped = { ...range, to: new Date(to) };
  const { rows } = await sql.query(
    `SELECT endpoint_id, covered_from, covered_to FROM probe_rank_total_covers
     WHERE range_key = $1 AND endpoint_id = ANY($2::uuid[])`,
    [range.key, ids],
  );
  const covers = new Map(
    z
      .array(Cover)
      .parse(rows)
      .map((c) => [c.endpoint_id, c]),
  );
  const full: string[] = [];
  const moved = new Map<string, { old: { from: number; to: number }; ids: string[] }>();
  for (const id of ids) {
    const c = covers.get(id);
    const old = c ? { from: c.covered_from.getTime(), to: c.covered_to.getTime() } : undefined;
    if (!old || !moveable(range.table, old, from, to)) {
      full.push(id);
      continue;
    }
    const key = `${old.from}/${old.to}`;
    const group = moved.get(key);
    if (group) group.ids.push(id);
    else moved.set(key, { old, ids: [id] });
  }
  if (full.length > 0) await sumInFull(sql, clipped, full);
  for (const g of moved.values()) await moveTotals(sql, clipped, g.ids, g.old);
  await sql.query(
    `INSERT INTO probe_rank_total_covers (range_key, endpoint_id, covered_from, covered_to)
     SELECT $1, id, $3, $4 FROM unnest($2::uuid[]) AS id
     ON CONFLICT (range_key, endpoint_id) DO UPDATE SET covered_from = EXCLUDED.covered_from,
       covered_to = EXCLUDED.covered_to`,
    [range.key, ids, clipped.from, clipped.to],
  );
}

/**
 * Brings the kept ranges of these endpoints up to date (moved, or summed in full where they cannot be
 * moved), then sums per window the ranges it is made of, per (endpoint, vantage point) with probes. The
 * ranges must hold settled rollup rows only (before the rollup pass's cut: rows the pass of this round
 * does not rewrite). One transaction on one session; concurrent rounds take turns (advisory lock).
 */
export async function sumProbeRankTotals(
  pool: SqlPool,
  endpointIds: readonly string[],
  ranges: readonly ProbeRankTotalRange[],
  windows: ReadonlyArray<readonly string[]>,
): Promise<ProbeRankSums[][]> {
  if (endpointIds.length === 0) return windows.map(() => []);
  const ids = [...endpointIds];
  return withSumsSession(pool, { readOnly: false }, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('probe_rank_totals'))");
    for (const range of ranges) await advanceRange(client, range, ids);
    return readWindowTotals(client, ids, windows);
  });
}

/** Per window, the sums of its ranges' totals per (endpoint, vantage point) with probes. */
async function readWindowTotals(
  sql: SqlClient,
  ids: readonly string[],
  windows: ReadonlyArray<readonly string[]>,
): Promise<ProbeRankSums[][]> {
  const keys = [...new Set(windows.flat())];
  const used = windows.map((list, w) => ({ list, w })).filter((x) => x.list.length > 0);
  const out: ProbeRankSums[][] = windows.map(() => []);
  if (used.length === 0) return out;
  const params: unknown[] = [ids, keys];
  const keyParam = (k: string) => {
    params.push(k);
    return `$${params.length}`;
  };
  const windowSql = used.map(
    ({ list, w }) => `SELECT ${w} AS w, endpoint_id, vantage_point_id,
         array_to_string(ARRAY[${ALL_COLS.map((c) => `sum(${c})`).join(", ")}]::float8[], ',') AS counts
       FROM totals WHERE range_key IN (${list.map(keyParam).join(", ")}) GROUP BY endpoint_id, vantage_point_id`,
  );
  const { rows } = await sql.query(
    `WITH totals AS MATERIALIZED (SELECT * FROM probe_rank_totals
       WHERE endpoint_id = ANY($1::uuid[]) AND range_key = ANY($2::text[]) AND probes > 0),
     sums AS (${windowSql.join("\n       UNION ALL ")})
     SELECT s.w, s.endpoint_id, s.vantage_point_id, v.region, v.kind::text AS kind,
       ${VANTAGE_ORGANIZATION} AS organization_id, s.counts
     FROM sums s JOIN vantage_points v ON v.id = s.vantage_point_id`,
    params,
  );
  for (const raw of rows as Array<{ w: number }>) out[raw.w]?.push(toProbeRankSums(raw));
  return out;
}
