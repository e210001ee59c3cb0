import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber } from "../sql/row-values.js";

/**
 * Ranking rollups (migration 0019): per endpoint, vantage point and bucket, what the ranking needs
 * of every probe. The ranking job measures the probes (lag against the consensus head, freshness)
 * and writes 5-minute buckets; hours are summed from them in SQL. Same tables in both storage modes.
 */

/** Columns ttfb_00..ttfb_63 and lag_00..lag_15 (bucket layout: @rpcpulse/prober probe-summary.ts). */
export const RANK_TTFB_BUCKETS = 64;
export const RANK_LAG_BUCKETS = 16;
const pad = (i: number) => String(i).padStart(2, "0");
export const TTFB_COLS = Array.from({ length: RANK_TTFB_BUCKETS }, (_, i) => `ttfb_${pad(i)}`);
export const LAG_COLS = Array.from({ length: RANK_LAG_BUCKETS }, (_, i) => `lag_${pad(i)}`);
const COUNT_COLS = [
  "probes",
  "ok",
  "answered",
  "answered_error",
  "rate_limited",
  "err_timeout",
  "err_connect",
  "err_http",
  "err_rpc",
  "err_other",
  "ttfb_n",
  "lag_n",
  "lagging",
  "stale",
  "head_regressions",
] as const;
const SUM_COLS = ["ttfb_sum", "lag_sum"] as const;
export const ALL_COLS = [...COUNT_COLS, ...SUM_COLS, ...TTFB_COLS, ...LAG_COLS];

const count = z.number().int().min(0).max(2_147_483_647);
export const ProbeRankBucket = z.object({
  endpointId: z.string().uuid(),
  vantagePointId: z.string().uuid(),
  bucket: z.date(),
  probes: count,
  ok: count,
  answered: count,
  answeredError: count,
  rateLimited: count,
  errors: z.object({ timeout: count, connect: count, http: count, rpc: count, other: count }),
  ttfbN: count,
  ttfbSum: z.number().finite().min(0),
  lagN: count,
  lagSum: z.number().finite().min(0),
  lagging: count,
  stale: count,
  headRegressions: count,
  ttfb: z.array(count).length(RANK_TTFB_BUCKETS),
  lag: z.array(count).length(RANK_LAG_BUCKETS),
});
export type ProbeRankBucket = z.infer<typeof ProbeRankBucket>;
export type ProbeRankSums = Omit<ProbeRankBucket, "bucket" | "vantagePointId"> & {
  vantagePointId: string;
  region: string;
  kind: "server" | "agent";
  organizationId: string | null;
};

function columnValues(r: ProbeRankBucket): number[] {
  const e = r.errors;
  return [
    r.probes,
    r.ok,
    r.answered,
    r.answeredError,
    r.rateLimited,
    e.timeout,
    e.connect,
    e.http,
    e.rpc,
    e.other,
    r.ttfbN,
    r.lagN,
    r.lagging,
    r.stale,
    r.headRegressions,
    r.ttfbSum,
    r.lagSum,
    ...r.ttfb,
    ...r.lag,
  ];
}

const UPSERT_CHUNK = 4_000;

/**
 * Insert or replace 5-minute buckets (the ranking job rewrites its recent buckets every run). A bucket
 * whose sums did not change is left as it is: most rewrites find the same probes (no late one), and a
 * rewritten row costs a new row version and its index entries.
 */
export async function upsertProbeRank5m(sql: SqlClient, rows: readonly ProbeRankBucket[]): Promise<number> {
  // Thousands of rows of 97 numbers per run: check the shape of the first and the counts of all
  // (every value must be a non-negative integer), not a schema pass per row.
  if (rows[0]) ProbeRankBucket.parse(rows[0]);
  const parsed = rows;
  const casts = ALL_COLS.map(
    (c, i) => `$${i + 4}::${(SUM_COLS as readonly string[]).includes(c) ? "float8" : "int4"}[]`,
  );
  const text = `INSERT INTO probe_rank_5m (endpoint_id, vantage_point_id, bucket, ${ALL_COLS.join(", ")})
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], ${casts.join(", ")})
     ON CONFLICT (endpoint_id, vantage_point_id, bucket) DO UPDATE SET
       ${ALL_COLS.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}
     WHERE (${ALL_COLS.map((c) => `probe_rank_5m.${c}`).join(", ")})
       IS DISTINCT FROM (${ALL_COLS.map((c) => `EXCLUDED.${c}`).join(", ")})`;
  const values = parsed.map(columnValues);
  values.forEach((v, i) => {
    if (parsed[i]!.ttfb.length !== RANK_TTFB_BUCKETS || parsed[i]!.lag.length !== RANK_LAG_BUCKETS) {
      throw new Error("probe_rank_5m: histogram of the wrong length");
    }
    for (let c = 0; c < v.length; c++) {
      const x = v[c] as number;
      const integer = c < COUNT_COLS.length || c >= COUNT_COLS.length + SUM_COLS.length;
      if (!(x >= 0) || !Number.isFinite(x) || (integer && !Number.isInteger(x))) {
        throw new Error(`probe_rank_5m: bad ${ALL_COLS[c]} ${x}`);
      }
    }
  });
  for (let i = 0; i < parsed.length; i += UPSERT_CHUNK) {
    const chunk = parsed.slice(i, i + UPSERT_CHUNK);
    const part = values.slice(i, i + UPSERT_CHUNK);
    await sql.query(text, [
      chunk.map((r) => r.endpointId),
      chunk.map((r) => r.vantagePointId),
      chunk.map((r) => r.bucket),
      ...ALL_COLS.map((_, c) => part.map((v) => v[c])),
    ]);
  }
  return parsed.length;
}

const ORIGIN = "timestamptz '2000-01-03 00:00:00+00'";

/** Re-sum the buckets [from, to) of `into` from the finer table `from` (5 min -> 1 h, 1 h -> 1 d). */
async function rollProbeRank(
  sql: SqlClient,
  tables: { from: "probe_rank_5m" | "probe_rank_1h"; into: "probe_rank_1h" | "probe_rank_1d"; step: string },
  params: { from: Date; to: Date },
): Promise<number> {
  if (params.from.getTime() >= params.to.getTime()) return 0;
  const { rows } = await sql.query(
    `WITH written AS (INSERT INTO ${tables.into} (bucket, endpoint_id, vantage_point_id, ${ALL_COLS.join(", ")})
     SELECT date_bin(interval '${tables.step}', bucket, ${ORIGIN}), endpoint_id, vantage_point_id,
       ${ALL_COLS.map((c) => `sum(${c})`).join(", ")}
     FROM ${tables.from} WHERE bucket >= $1 AND bucket < $2
     GROUP BY 1, 2, 3
     ON CONFLICT (endpoint_id, vantage_point_id, bucket) DO UPDATE SET
       ${ALL_COLS.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}
     RETURNING 1) SELECT count(*) AS n FROM written`,
    [params.from, params.to],
  );
  return z.array(z.object({ n: dbNumber })).parse(rows)[0]?.n ?? 0;
}

/** (Re)sum the hours [from, to) of probe_rank_1h from probe_rank_5m. Returns the hour rows written. */
export async function rollProbeRankHours(sql: SqlClient, params: { from: Date; to: Date }): Promise<number> {
  return rollProbeRank(sql, { from: "probe_rank_5m", into: "probe_rank_1h", step: "1 hour" }, params);
}

/** (Re)sum the closed days [from, to) of probe_rank_1d (migration 0022) from probe_rank_1h. Returns the day rows written. */
export async function rollProbeRankDays(sql: SqlClient, params: { from: Date; to: Date }): Promise<number> {
  return rollProbeRank(sql, { from: "probe_rank_1h", into: "probe_rank_1d", step: "1 day" }, params);
}

/** Drop 5-minute buckets before `fiveMinBefore`, hours and days before `hourBefore` (both modes; Timescale also drops chunks). */
export async function pruneProbeRankRollups(
  sql: SqlClient,
  params: { fiveMinBefore: Date; hourBefore: Date },
): Promise<void> {
  // Each table's oldest bucket first (one entry of its bucket index): most runs have nothing to drop,
  // and a DELETE planned on stale statistics seq-scanned (and JIT-compiled) every row to find nothing.
  const { rows } = await sql.query(
    `SELECT (SELECT min(bucket) FROM probe_rank_5m) AS m5, (SELECT min(bucket) FROM probe_rank_1h) AS h1,
       (SELECT min(bucket) FROM probe_rank_1d) AS d1`,
  );
  const oldest = z
    .array(z.object({ m5: dbDate.nullable(), h1: dbDate.nullable(), d1: dbDate.nullable() }))
    .parse(rows)[0];
  const prune = async (table: string, min: Date | null | undefined, before: Date) => {
    if (min && min.getTime() < before.getTime()) await sql.query(`DELETE FROM ${table} WHERE bucket < $1`, [before]);
  };
  await prune("probe_rank_5m", oldest?.m5, params.fiveMinBefore);
  await prune("probe_rank_1h", oldest?.h1, params.hourBefore);
  await prune("probe_rank_1d", oldest?.d1, params.hourBefore);
}

/** Oldest late-stored probe per endpoint (probe_rank_dirty), to re-measure from. */
export async function listProbeRankDirty(
  sql: SqlClient,
  endpointIds: readonly string[],
): Promise<Array<{ endpointId: string; since: Date }>> {
  if (endpointIds.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT endpoint_id, since FROM probe_rank_dirty WHERE endpoint_id = ANY($1::uuid[])`,
    [[...endpointIds]],
  );
  return z
    .array(z.object({ endpoint_id: z.string(), since: z.date() }))
    .parse(rows)
    .map((r) => ({ endpointId: r.endpoint_id, since: r.since }));
}

/** Clear the marks that were read (a mark moved earlier meanwhile stays for the next pass). */
export async function clearProbeRankDirty(
  sql: SqlClient,
  marks: ReadonlyArray<{ endpointId: string; since: Date }>,
): Promise<void> {
  if (marks.length === 0) return;
  await sql.query(
    `DELETE FROM probe_rank_dirty d USING unnest($1::uuid[], $2::timestamptz[]) AS m(endpoint_id, since)
     WHERE d.endpoint_id = m.endpoint_id AND d.since >= m.since`,
    [marks.map((m) => m.endpointId), marks.map((m) => m.since)],
  );
}

/**
 * End of the newest 5-minute bucket written for any of these endpoints (the hours if the 5-minute
 * buckets were pruned), or null when none was: where the ranking job's rollup pass resumes.
 */
export async function getProbeRankWatermark(sql: SqlClient, endpointIds: readonly string[]): Promise<Date | null> {
  if (endpointIds.length === 0) return null;
  const { rows } = await sql.query(
    `SELECT greatest(
       (SELECT max(bucket) + interval '5 minutes' FROM probe_rank_5m WHERE endpoint_id = ANY($1::uuid[])),
       (SELECT max(bucket) + interval '1 hour' FROM probe_rank_1h WHERE endpoint_id = ANY($1::uuid[]))) AS until`,
    [[...endpointIds]],
  );
  const until = (rows[0] as { until: Date | string | null } | undefined)?.until ?? null;
  return until === null ? null : new Date(until);
}
