import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { LATENCY_BUCKET_BOUNDS_MS } from "../sql/latency-histogram.js";
import { dbNumber, dbNumberOrNull } from "../sql/row-values.js";

/** Which rollup carries the bulk of a window: 1-minute for 1 h / 24 h, 1-hour for 7 d. */
export type ProbeRollupStep = "1m" | "1h";

const STEP_MS: Record<ProbeRollupStep, number> = { "1m": 60_000, "1h": 3_600_000 };
const ROLLUP_TABLE: Record<ProbeRollupStep, string> = { "1m": "probe_results_1m", "1h": "probe_results_1h" };

/** Per (endpoint, vantage region) counts over a window, as the rollups store them. */
export interface ProbeWindowStats {
  endpointId: string;
  region: string;
  probes: number;
  ok: number;
  rateLimited: number;
  /** Successful probes with a total time: the population of the histogram. */
  latencySamples: number;
  /** Counts per bucket of total_ms (bounds LATENCY_BUCKET_BOUNDS_MS, last bucket open). Not cumulative. */
  latencyHistogram: number[];
  totalMsMin: number | null;
  totalMsMax: number | null;
  /** How many of `probes` were read raw (outside materialised rollup buckets). */
  rawProbes: number;
}

export const GetProbeWindowStatsParams = z
  .object({
    endpointIds: z.array(z.string().uuid()).max(10_000),
    from: z.date(),
    to: z.date(),
    step: z.enum(["1m", "1h"]),
  })
  .refine((p) => p.from.getTime() < p.to.getTime(), { message: "from must be before to" });
export type GetProbeWindowStatsParams = z.input<typeof GetProbeWindowStatsParams>;

const HIST_COLUMNS = [...LATENCY_BUCKET_BOUNDS_MS.map((b) => `lat_le_${b}`), "lat_gt_5000"];

/** The same bucketing as the rollups (0002_timeseries), applied to raw rows. */
const RAW_HISTOGRAM = HIST_COLUMNS.map((col, i) => {
  const lower = i === 0 ? null : LATENCY_BUCKET_BOUNDS_MS[i - 1];
  const upper = LATENCY_BUCKET_BOUNDS_MS[i];
  const conds = ["p.ok", "p.total_ms IS NOT NULL"];
  if (lower !== undefined && lower !== null) conds.push(`p.total_ms > ${lower}`);
  if (upper !== undefined) conds.push(`p.total_ms <= ${upper}`);
  return `count(*) FILTER (WHERE ${conds.join(" AND ")})::bigint AS ${col}`;
}).join(",\n       ");

const Row = z.object({
  endpoint_id: z.string(),
  region: z.string(),
  probes: dbNumber,
  ok: dbNumber,
  rate_limited: dbNumber,
  latency_samples: dbNumber,
  total_ms_min: dbNumberOrNull,
  total_ms_max: dbNumberOrNull,
  raw_probes: dbNumber,
  ...Object.fromEntries(HIST_COLUMNS.map((c) => [c, dbNumber])),
});

function ceilTo(ms: number, step: number): number {
  return Math.ceil(ms / step) * step;
}

/**
 * Probe counts and the total-time histogram per endpoint and vantage region over [from, to).
 * Rollup buckets lying wholly inside the window are read from the chosen rollup; raw probe_results
 * are read only for the fragment before the first aligned bucket and for the recent part after the
 * last bucket the rollup has materialised for that endpoint (continuous aggregates are
 * materialized_only; plain-mode tables are refreshed by the worker). Works in both storage modes.
 */
export async function getProbeWindowStats(
  sql: SqlClient,
  params: GetProbeWindowStatsParams,
): Promise<ProbeWindowStats[]> {
  const p = GetProbeWindowStatsParams.parse(params);
  if (p.endpointIds.length === 0) return [];
  const stepMs = STEP_MS[p.step];
  const rolledFrom = new Date(ceilTo(p.from.getTime(), stepMs));
  // Last bucket start whose whole interval is inside the window.
  const rolledUntil = new Date(p.to.getTime() - stepMs);
  const table = ROLLUP_TABLE[p.step];
  const rollSums = HIST_COLUMNS.map((c) => `sum(r.${c})::bigint AS ${c}`).join(", ");
  const outSums = HIST_COLUMNS.map((c) => `sum(${c})::bigint AS ${c}`).join(", ");
  const { rows } = await sql.query(
    `WITH rolled_rows AS (
       SELECT r.* FROM ${table} r
       WHERE r.endpoint_id = ANY($1::uuid[]) AND r.bucket >= $3 AND r.bucket <= $4),
     cover AS (
       SELECT endpoint_id, max(bucket) + $5::interval AS covered_until FROM rolled_rows GROUP BY endpoint_id),
     rolled AS (
       SELECT r.endpoint_id, v.region, sum(r.probes)::bigint AS probes, sum(r.ok_count)::bigint AS ok,
         sum(r.rate_limited_count)::bigint AS rate_limited, sum(r.latency_samples)::bigint AS latency_samples,
         min(r.total_ms_min) AS total_ms_min, max(r.total_ms_max) AS total_ms_max, 0::bigint AS raw_probes,
         ${rollSums}
       FROM rolled_rows r JOIN vantage_points v ON v.id = r.vantage_point_id
       GROUP BY r.endpoint_id, v.region),
     raw AS (
       SELECT p.endpoint_id, v.region, count(*)::bigint AS probes, count(*) FILTER (WHERE p.ok)::bigint AS ok,
         count(*) FILTER (WHERE p.rate_limited)::bigint AS rate_limited,
         count(p.total_ms) FILTER (WHERE p.ok)::bigint AS latency_samples,
         min(p.total_ms) FILTER (WHERE p.ok) AS total_ms_min, max(p.total_ms) FILTER (WHERE p.ok) AS total_ms_max,
         count(*)::bigint AS raw_probes,
         ${RAW_HISTOGRAM}
       FROM probe_results p
         JOIN vantage_points v ON v.id = p.vantage_point_id
         LEFT JOIN cover c ON c.endpoint_id = p.endpoint_id
       WHERE p.endpoint_id = ANY($1::uuid[]) AND p.time >= $2 AND p.time < $6
         AND (p.time < $3 OR p.time >= coalesce(c.covered_until, $3))
       GROUP BY p.endpoint_id, v.region)
     SELECT endpoint_id, region, sum(probes)::bigint AS probes, sum(ok)::bigint AS ok,
       sum(rate_limited)::bigint AS rate_limited, sum(latency_samples)::bigint AS latency_samples,
       min(total_ms_min) AS total_ms_min, max(total_ms_max) AS total_ms_max, sum(raw_probes)::bigint AS raw_probes,
       ${outSums}
     FROM (SELECT * FROM rolled UNION ALL SELECT * FROM raw) parts
     GROUP BY endpoint_id, region
     ORDER BY endpoint_id, region`,
    [[...p.endpointIds], p.from, rolledFrom, rolledUntil, `${stepMs / 1000} seconds`, p.to],
  );
  return rows.map((raw) => {
    const r = Row.parse(raw) as z.infer<typeof Row> & Record<string, number>;
    return {
      endpointId: r.endpoint_id,
      region: r.region,
      probes: r.probes,
      ok: r.ok,
      rateLimited: r.rate_limited,
      latencySamples: r.latency_samples,
      latencyHistogram: HIST_COLUMNS.map((c) => r[c] ?? 0),
      totalMsMin: r.total_ms_min,
      totalMsMax: r.total_ms_max,
      rawProbes: r.raw_probes,
    };
  });
}
