import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { estimateQuantile } from "../sql/latency-histogram.js";
import {
  dbDate,
  dbNumber,
  dbNumberArray,
  dbNumberOrNull,
  float,
  int2,
  int4,
  int8,
  pickResolution,
  Resolution,
  toColumnArrays,
} from "../sql/row-values.js";

export const PROBE_ERROR_MESSAGE_MAX = 512;

/** One probe of a public endpoint from a vantage point (table probe_results). Phases in ms. */
export const ProbeResult = z.object({
  time: z.coerce.date(),
  endpointId: z.string().uuid(),
  vantagePointId: z.string().uuid(),
  ok: z.boolean(),
  httpStatus: int2.min(0).nullish(),
  /** Short machine class: "timeout", "dns", "tls", "http_5xx", "rpc_error", "stale_head" ... */
  errorClass: z.string().min(1).max(64).nullish(),
  /** Free text, truncated to 512 characters. */
  errorMessage: z
    .string()
    .nullish()
    .transform((v) => (v == null ? v : v.slice(0, PROBE_ERROR_MESSAGE_MAX))),
  dnsMs: float.nonnegative().nullish(),
  connectMs: float.nonnegative().nullish(),
  tlsMs: float.nonnegative().nullish(),
  ttfbMs: float.nonnegative().nullish(),
  totalMs: float.nonnegative().nullish(),
  headBlock: int8.nonnegative().nullish(),
  headTime: z.coerce.date().nullish(),
  finalizedBlock: int8.nonnegative().nullish(),
  responseBytes: int4.nonnegative().nullish(),
  rateLimited: z.boolean().default(false),
});
export type ProbeResult = z.infer<typeof ProbeResult>;
export type ProbeResultInput = z.input<typeof ProbeResult>;

const FIELDS = [
  "time",
  "endpointId",
  "vantagePointId",
  "headTime",
  "headBlock",
  "finalizedBlock",
  "responseBytes",
  "dnsMs",
  "connectMs",
  "tlsMs",
  "ttfbMs",
  "totalMs",
  "httpStatus",
  "ok",
  "rateLimited",
  "errorClass",
  "errorMessage",
] as const satisfies readonly (keyof ProbeResult)[];

/**
 * A probe older than this when stored is late for the ranking rollups (their pass rewrites the last
 * 5 minutes anyway): it marks its endpoint in probe_rank_dirty (migration 0019).
 */
const LATE_PROBE_SECONDS = 240;

const INSERT_SQL = `
WITH inserted AS (
  INSERT INTO probe_results (time, endpoint_id, vantage_point_id, head_time, head_block, finalized_block,
    response_bytes, dns_ms, connect_ms, tls_ms, ttfb_ms, total_ms, http_status, ok, rate_limited,
    error_class, error_message)
  SELECT * FROM unnest($1::timestamptz[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::int8[], $6::int8[],
    $7::int4[], $8::float4[], $9::float4[], $10::float4[], $11::float4[], $12::float4[], $13::int2[],
    $14::bool[], $15::bool[], $16::text[], $17::text[])
  ON CONFLICT (endpoint_id, vantage_point_id, time) DO NOTHING
  RETURNING endpoint_id, time
),
late AS (
  INSERT INTO probe_rank_dirty (endpoint_id, since)
  SELECT endpoint_id, min(time) FROM inserted WHERE time < now() - interval '${LATE_PROBE_SECONDS} seconds'
  GROUP BY endpoint_id
  ON CONFLICT (endpoint_id) DO UPDATE SET since = least(probe_rank_dirty.since, EXCLUDED.since)
)
SELECT count(*)::integer AS inserted FROM inserted`;

/** Bulk insert; a result already stored (endpoint, vantage point, time) is skipped. Returns rows inserted. */
export async function insertProbeResults(sql: SqlClient, rows: readonly ProbeResultInput[]): Promise<number> {
  const parsed = z.array(ProbeResult).max(10_000).parse(rows);
  if (parsed.length === 0) return 0;
  const result = await sql.query(INSERT_SQL, toColumnArrays(parsed, FIELDS));
  return z.object({ inserted: z.number().int() }).parse(result.rows[0]).inserted;
}

export const GetProbeSeriesParams = z
  .object({
    endpointId: z.string().uuid(),
    /** Omit to combine every vantage point. */
    vantagePointId: z.string().uuid().nullish(),
    from: z.coerce.date(),
    to: z.coerce.date(),
    resolution: Resolution.default("auto"),
  })
  .refine((v) => v.from.getTime() < v.to.getTime(), "from must be before to");
export type GetProbeSeriesParams = z.input<typeof GetProbeSeriesParams>;

/** A point: all probes at one timestamp (raw) or in one bucket. Latency over successful probes. */
export const ProbeSeriesPoint = z.object({
  time: z.date(),
  probes: z.number(),
  okCount: z.number(),
  rateLimitedCount: z.number(),
  /** okCount / probes. */
  availability: z.number(),
  latencySamples: z.number(),
  dnsMsAvg: z.number().nullable(),
  connectMsAvg: z.number().nullable(),
  tlsMsAvg: z.number().nullable(),
  ttfbMsAvg: z.number().nullable(),
  totalMsAvg: z.number().nullable(),
  totalMsMin: z.number().nullable(),
  totalMsMax: z.number().nullable(),
  totalMsP95: z.number().nullable(),
  headBlockMax: z.number().nullable(),
  responseBytesSum: z.number().nullable(),
});
export type ProbeSeriesPoint = z.infer<typeof ProbeSeriesPoint>;

const n = dbNumberOrNull;
const Row = z
  .object({
    time: dbDate,
    probes: dbNumber,
    ok_count: dbNumber,
    rate_limited_count: dbNumber,
    latency_samples: dbNumber,
    dns_ms_avg: n,
    connect_ms_avg: n,
    tls_ms_avg: n,
    ttfb_ms_avg: n,
    total_ms_avg: n,
    total_ms_min: n,
    total_ms_max: n,
    total_ms_p95: n.optional(),
    latency_histogram: dbNumberArray.optional(),
    head_block_max: n,
    response_bytes_sum: n,
  })
  .transform((r): ProbeSeriesPoint => ({
    time: r.time,
    probes: r.probes,
    okCount: r.ok_count,
    rateLimitedCount: r.rate_limited_count,
    availability: r.probes === 0 ? 0 : r.ok_count / r.probes,
    latencySamples: r.latency_samples,
    dnsMsAvg: r.dns_ms_avg,
    connectMsAvg: r.connect_ms_avg,
    tlsMsAvg: r.tls_ms_avg,
    ttfbMsAvg: r.ttfb_ms_avg,
    totalMsAvg: r.total_ms_avg,
    totalMsMin: r.total_ms_min,
    totalMsMax: r.total_ms_max,
    totalMsP95:
      r.total_ms_p95 !== undefined
        ? r.total_ms_p95
        : estimateQuantile(r.latency_histogram ?? [], 0.95, r.total_ms_min, r.total_ms_max),
    headBlockMax: r.head_block_max,
    responseBytesSum: r.response_bytes_sum,
  }));

const RAW_SQL = `
SELECT
  time,
  count(*)::integer AS probes,
  count(*) FILTER (WHERE ok)::integer AS ok_count,
  count(*) FILTER (WHERE rate_limited)::integer AS rate_limited_count,
  count(total_ms) FILTER (WHERE ok)::integer AS latency_samples,
  avg(dns_ms::float8) FILTER (WHERE ok) AS dns_ms_avg,
  avg(connect_ms::float8) FILTER (WHERE ok) AS connect_ms_avg,
  avg(tls_ms::float8) FILTER (WHERE ok) AS tls_ms_avg,
  avg(ttfb_ms::float8) FILTER (WHERE ok) AS ttfb_ms_avg,
  avg(total_ms::float8) FILTER (WHERE ok) AS total_ms_avg,
  min(total_ms::float8) FILTER (WHERE ok) AS total_ms_min,
  max(total_ms::float8) FILTER (WHERE ok) AS total_ms_max,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY total_ms::float8) FILTER (WHERE ok) AS total_ms_p95,
  max(head_block) AS head_block_max,
  sum(response_bytes)::bigint AS response_bytes_sum
FROM probe_results
WHERE endpoint_id = $1 AND ($2::uuid IS NULL OR vantage_point_id = $2) AND time >= $3 AND time < $4
GROUP BY time
ORDER BY time`;

function rollupSql(table: "probe_results_1m" | "probe_results_1h"): string {
  return `
SELECT
  bucket AS time,
  sum(probes)::integer AS probes,
  sum(ok_count)::integer AS ok_count,
  sum(rate_limited_count)::integer AS rate_limited_count,
  sum(latency_samples)::integer AS latency_samples,
  sum(dns_ms_sum) / nullif(sum(latency_samples), 0) AS dns_ms_avg,
  sum(connect_ms_sum) / nullif(sum(latency_samples), 0) AS connect_ms_avg,
  sum(tls_ms_sum) / nullif(sum(latency_samples), 0) AS tls_ms_avg,
  sum(ttfb_ms_sum) / nullif(sum(latency_samples), 0) AS ttfb_ms_avg,
  sum(total_ms_sum) / nullif(sum(latency_samples), 0) AS total_ms_avg,
  min(total_ms_min)::float8 AS total_ms_min,
  max(total_ms_max)::float8 AS total_ms_max,
  ARRAY[sum(lat_le_5), sum(lat_le_10), sum(lat_le_25), sum(lat_le_50), sum(lat_le_100), sum(lat_le_250),
        sum(lat_le_500), sum(lat_le_1000), sum(lat_le_2500), sum(lat_le_5000), sum(lat_gt_5000)]::int8[]
    AS latency_histogram,
  max(head_block_max) AS head_block_max,
  sum(response_bytes_sum)::bigint AS response_bytes_sum
FROM ${table}
WHERE endpoint_id = $1 AND ($2::uuid IS NULL OR vantage_point_id = $2) AND bucket >= $3 AND bucket < $4
GROUP BY bucket
ORDER BY bucket`;
}

const SQL_BY_RESOLUTION = {
  raw: RAW_SQL,
  "1m": rollupSql("probe_results_1m"),
  "1h": rollupSql("probe_results_1h"),
} as const;

/** An endpoint's probe results over [from, to), from one vantage point or all of them combined. */
export async function getProbeSeries(
  sql: SqlClient,
  params: GetProbeSeriesParams,
): Promise<{ resolution: "raw" | "1m" | "1h"; points: ProbeSeriesPoint[] }> {
  const p = GetProbeSeriesParams.parse(params);
  const resolution = pickResolution(p.resolution, p.from, p.to);
  const { rows } = await sql.query(SQL_BY_RESOLUTION[resolution], [
    p.endpointId,
    p.vantagePointId ?? null,
    p.from,
    p.to,
  ]);
  return { resolution, points: rows.map((r) => Row.parse(r)) };
}
