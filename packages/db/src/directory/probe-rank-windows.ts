import { z } from "zod";
import type { SqlPool } from "../sql/sql-pool.js";
import { withTransaction, type SqlClient } from "../sql/sql-client.js";
import { dbNumber } from "../sql/row-values.js";
import {
  ALL_COLS,
  LAG_COLS,
  RANK_LAG_BUCKETS,
  RANK_TTFB_BUCKETS,
  TTFB_COLS,
  type ProbeRankSums,
} from "./probe-rank-rollups.js";
import { VANTAGE_ORGANIZATION } from "./probe-samples.js";

/**
 * Window sums of the ranking rollups (probe_rank_5m, probe_rank_1h, probe_rank_1d; migration 0019 and
 * 0022): per (endpoint, vantage point), the sum of the rollup rows that make up a window.
 */

const SumsRow = z.object({
  endpoint_id: z.string(),
  vantage_point_id: z.string(),
  region: z.string(),
  kind: z.enum(["server", "agent"]),
  organization_id: z.string().nullable(),
  counts: z.array(dbNumber),
});

/**
 * SumsRow without a schema pass over every one of the 97 sums of every row (tens of thousands of rows
 * per round); a row of another shape still goes through the schema.
 */
function toSumsRow(raw: unknown): z.output<typeof SumsRow> {
  const r = raw as Record<string, unknown>;
  // The sums arrive as one comma-separated text (a split is several times cheaper than the driver's
  // parse of a float8[] of 97 elements; float8 text is the shortest exact form, so Number reads it back).
  const counts = typeof r.counts === "string" ? r.counts.split(",").map(Number) : r.counts;
  r.counts = counts;
  const fits =
    typeof r.endpoint_id === "string" &&
    typeof r.vantage_point_id === "string" &&
    typeof r.region === "string" &&
    (r.kind === "server" || r.kind === "agent") &&
    (r.organization_id === null || typeof r.organization_id === "string") &&
    Array.isArray(counts) &&
    counts.length === ALL_COLS.length &&
    counts.every((x) => typeof x === "number" && Number.isFinite(x));
  return fits ? (raw as z.output<typeof SumsRow>) : SumsRow.parse(raw);
}

/** The rollup rows of one window: days [dayFrom, dayTo), hours [hourFrom, hourTo) outside those days, 5-minute buckets [fiveFrom, fiveTo). */
export interface ProbeRankWindowParts {
  endpointIds: readonly string[];
  hourFrom: Date;
  hourTo: Date;
  fiveFrom: Date;
  fiveTo: Date;
  /** Whole days inside [hourFrom, hourTo) read from probe_rank_1d; omitted: none. */
  dayFrom?: Date;
  dayTo?: Date;
}

/**
 * Sums per (endpoint, vantage point) of the days [dayFrom, dayTo), the hours of [hourFrom, hourTo)
 * outside those days and the 5-minute buckets [fiveFrom, fiveTo): one window of the ranking without
 * its raw tail. Rows are summed in SQL, so a 7-day window of 3,000 endpoints × 3 vantage points
 * returns 9,000 rows (from about 6 days + 24 hours of rollup rows each, not 168 hours).
 */
export async function sumProbeRankWindow(sql: SqlClient, params: ProbeRankWindowParts): Promise<ProbeRankSums[]> {
  return (await sumProbeRankWindowsOn(sql, [params]))[0] ?? [];
}

/**
 * sumProbeRankWindow for several windows in one read-only transaction on one session of the pool
 * (every window from the same snapshot), with memory for the 97-column hash aggregates and the
 * materialized piece sums (at the default 4 MB they spill to disk) and without JIT (compiling the 97
 * sums took longer than running them: 1.2-1.5 s of a 2.7 s 7-day sum at 3,000 endpoints).
 */
export async function sumProbeRankWindows(
  pool: SqlPool,
  windows: readonly ProbeRankWindowParts[],
  side?: RollupSide,
): Promise<ProbeRankSums[][]> {
  return withSumsSession(pool, { readOnly: true }, (client) => sumProbeRankWindowsOn(client, windows, side));
}

/**
 * `fn` in one transaction on one session of the pool, set for sums of the 97 rollup columns: memory
 * for their hash aggregates, no JIT (see sumProbeRankWindows).
 */
export async function withSumsSession<T>(
  pool: SqlPool,
  options: { readOnly: boolean },
  fn: (client: SqlClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    return await withTransaction(client, async () => {
      if (options.readOnly) await client.query("SET TRANSACTION READ ONLY");
      await client.query("SET LOCAL work_mem = '128MB'");
      await client.query("SET LOCAL jit = off");
      return fn(client);
    });
  } finally {
    client.release();
  }
}

/**
 * Per rollup table, the first bucket a ranking run's rollup pass may still (re)write: buckets before
 * it are settled. The ranking sums a window's settled rows while its rollup pass runs, and the rest
 * after it.
 */
export interface RollupCut {
  fiveFrom: Date;
  hourFrom: Date;
  dayFrom: Date;
}

/** Only the settled rows of each window (before the cut) or only the others (from the cut on). */
export type RollupSide = { before: RollupCut } | { from: RollupCut };

type RankTable = "probe_rank_5m" | "probe_rank_1h" | "probe_rank_1d";

/** A bucket range [from, to) of one rollup table (ms). */
interface Range {
  table: RankTable;
  from: number;
  to: number;
}

/** The rollup ranges of one window (empty ones left out), on one side of a cut when given. */
function rangesOf(w: ProbeRankWindowParts, side?: RollupSide): Range[] {
  // Hours [hourFrom, dayFrom) and [dayTo, hourTo) around the days; without days, all of them.
  const hourTo = w.hourTo.getTime();
  const dayFrom = w.dayFrom?.getTime() ?? hourTo;
  const dayTo = w.dayTo?.getTime() ?? hourTo;
  const all: Range[] = [
    { table: "probe_rank_1h", from: w.hourFrom.getTime(), to: dayFrom },
    { table: "probe_rank_1h", from: dayTo, to: hourTo },
    { table: "probe_rank_1d", from: dayFrom, to: dayTo },
    { table: "probe_rank_5m", from: w.fiveFrom.getTime(), to: w.fiveTo.getTime() },
  ];
  return all.map((r) => (side ? clipRange(r, side) : r)).filter((r) => r.from < r.to);
}

function clipRange(r: Range, side: RollupSide): Range {
  const cutOf = (c: RollupCut) =>
    (r.table === "probe_rank_5m" ? c.fiveFrom : r.table === "probe_rank_1h" ? c.hourFrom : c.dayFrom).getTime();
  if ("before" in side) return { ...r, to: Math.min(r.to, cutOf(side.before)) };
  return { ...r, from: Math.max(r.from, cutOf(side.from)) };
}

/**
 * The windows' ranges cut into disjoint pieces per table at every range boundary, and for each window
 * the pieces that make it up: a rollup row in several windows (the hours of today in the 24 h, 7 d and
 * 30 d windows, the days of the 7 d window in the 30 d one) is read and summed once.
 */
export function splitWindowRanges(windows: readonly Range[][]): { pieces: Range[]; windowPieces: number[][] } {
  const pieces: Range[] = [];
  const windowPieces: number[][] = windows.map(() => []);
  for (const table of ["probe_rank_1d", "probe_rank_1h", "probe_rank_5m"] as const) {
    const ranges = windows.map((rs) => rs.filter((r) => r.table === table));
    const cuts = [...new Set(ranges.flat().flatMap((r) => [r.from, r.to]))].sort((a, b) => a - b);
    for (let i = 0; i + 1 < cuts.length; i++) {
      const from = cuts[i] as number;
      const to = cuts[i + 1] as number;
      const users = ranges.flatMap((rs, w) => (rs.some((r) => r.from <= from && to <= r.to) ? [w] : []));
      if (users.length === 0) continue;
      for (const w of users) windowPieces[w]?.push(pieces.length);
      pieces.push({ table, from, to });
    }
  }
  return { pieces, windowPieces };
}

async function sumProbeRankWindowsOn(
  sql: SqlClient,
  windows: readonly ProbeRankWindowParts[],
  side?: RollupSide,
): Promise<ProbeRankSums[][]> {
  const out: ProbeRankSums[][] = windows.map(() => []);
  // Windows of the same endpoints share their pieces (one query); others are summed on their own.
  const groups = new Map<string, number[]>();
  windows.forEach((w, i) => {
    if (w.endpointIds.length === 0) return;
    const key = w.endpointIds.join(",");
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  for (const members of groups.values()) {
    const ids = windows[members[0] as number]?.endpointIds ?? [];
    const sums = await sumWindowPieces(
      sql,
      ids,
      members.map((i) => rangesOf(windows[i] as ProbeRankWindowParts, side)),
    );
    members.forEach((w, k) => (out[w] = sums[k] ?? []));
  }
  return out;
}

async function sumWindowPieces(
  sql: SqlClient,
  endpointIds: readonly string[],
  windows: readonly Range[][],
): Promise<ProbeRankSums[][]> {
  const { pieces, windowPieces } = splitWindowRanges(windows);
  const used = windowPieces.map((list, w) => ({ list, w })).filter((x) => x.list.length > 0);
  if (used.length === 0) return windows.map(() => []);
  const params: unknown[] = [[...endpointIds]];
  const at = (d: number) => {
    params.push(new Date(d));
    return `$${params.length}`;
  };
  // Each piece summed per (endpoint, vantage point) once; each window sums its pieces' sums.
  const pieceSql = pieces.map(
    (
      p,
      i,
    ) => `SELECT ${i} AS piece, endpoint_id, vantage_point_id, ${ALL_COLS.map((c) => `sum(${c})::float8 AS ${c}`).join(", ")}
       FROM ${p.table} WHERE endpoint_id = ANY($1::uuid[]) AND bucket >= ${at(p.from)} AND bucket < ${at(p.to)}
       GROUP BY endpoint_id, vantage_point_id`,
  );
  const windowSql = used.map(
    ({ list, w }) => `SELECT ${w} AS w, endpoint_id, vantage_point_id,
         array_to_string(ARRAY[${ALL_COLS.map((c) => `sum(${c})`).join(", ")}]::float8[], ',') AS counts
       FROM pieces WHERE piece IN (${list.join(", ")}) GROUP BY endpoint_id, vantage_point_id`,
  );
  const { rows } = await sql.query(
    `WITH pieces AS MATERIALIZED (${pieceSql.join("\n       UNION ALL ")}),
     sums AS (${windowSql.join("\n       UNION ALL ")})
     SELECT s.w, s.endpoint_id, s.vantage_point_id, v.region, v.kind::text AS kind,
       ${VANTAGE_ORGANIZATION} AS organization_id, s.counts
     FROM sums s JOIN vantage_points v ON v.id = s.vantage_point_id`,
    params,
  );
  const out: ProbeRankSums[][] = windows.map(() => []);
  for (const raw of rows as Array<{ w: number }>) out[raw.w]?.push(toProbeRankSums(raw));
  return out;
}

const ttfbAt = ALL_COLS.indexOf(TTFB_COLS[0] as string);
const lagAt = ALL_COLS.indexOf(LAG_COLS[0] as string);
const colAt = new Map(ALL_COLS.map((c, i) => [c, i]));

/** One summed row (the sums as comma-separated text in `counts`) as ProbeRankSums. */
export function toProbeRankSums(raw: unknown): ProbeRankSums {
  const r = toSumsRow(raw);
  const v = (c: string) => r.counts[colAt.get(c) ?? -1] ?? 0;
  return {
    endpointId: r.endpoint_id,
    vantagePointId: r.vantage_point_id,
    region: r.region,
    kind: r.kind,
    organizationId: r.organization_id,
    probes: v("probes"),
    ok: v("ok"),
    answered: v("answered"),
    answeredError: v("answered_error"),
    rateLimited: v("rate_limited"),
    errors: {
      timeout: v("err_timeout"),
      connect: v("err_connect"),
      http: v("err_http"),
      rpc: v("err_rpc"),
      other: v("err_other"),
    },
    ttfbN: v("ttfb_n"),
    ttfbSum: v("ttfb_sum"),
    lagN: v("lag_n"),
    lagSum: v("lag_sum"),
    lagging: v("lagging"),
    stale: v("stale"),
    headRegressions: v("head_regressions"),
    ttfb: r.counts.slice(ttfbAt, ttfbAt + RANK_TTFB_BUCKETS),
    lag: r.counts.slice(lagAt, lagAt + RANK_LAG_BUCKETS),
  };
}
