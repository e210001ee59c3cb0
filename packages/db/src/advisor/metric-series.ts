import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { estimateQuantile } from "../sql/latency-histogram.js";
import { dbDate, dbNumberArray, dbNumberOrNull } from "../sql/row-values.js";

/**
 * Series of one advisor target metric (the metric a suggestion is verified on), for the
 * before/after comparison and its chart. The names are the advisor's TargetMetric values.
 *
 * Short ranges read raw samples (one point per agent sample); ranges longer than
 * RAW_SERIES_MAX_MS read the 1-minute rollups (one point per minute: the bucket's max for
 * gauges, its sum for per-sample counters, the estimated p95 for latency). The rollups exist
 * under the same name and columns in both storage modes.
 */
export const ADVISOR_SERIES_METRICS = [
  "tw_outbound",
  "tw_inbound",
  "ephemeral_ratio",
  "listen_overflows",
  "listen_drops",
  "tw_overflows",
  "latency_p95_ms",
  "lag_blocks",
  "head_age_ms",
  "finality_lag_blocks",
  "close_wait",
  "orphans",
  "fin_wait2",
  "conntrack_ratio",
  "fd_ratio",
  "top_ip_connections",
  "rpc_connections",
  "peers",
  "mem_available_ratio",
  "shm_free_ratio",
  "clock_skew_ms",
] as const;
export type AdvisorSeriesMetric = (typeof ADVISOR_SERIES_METRICS)[number];

/** Raw samples up to this range; the 1-minute rollups beyond it. */
export const RAW_SERIES_MAX_MS = 3 * 3_600_000;

/** Per metric: the value per raw sample, and per 1-minute rollup bucket (null = raw only). */
const EXPRESSIONS: Record<AdvisorSeriesMetric, { raw: string; rollup: string | null }> = {
  tw_outbound: { raw: "time_wait_out", rollup: "time_wait_out_max" },
  tw_inbound: { raw: "time_wait_in", rollup: "time_wait_in_max" },
  ephemeral_ratio: {
    raw: "ephemeral_in_use::float8 / nullif(ephemeral_range, 0)",
    rollup: "ephemeral_in_use_max::float8 / nullif(ephemeral_range, 0)",
  },
  listen_overflows: { raw: "listen_overflows", rollup: "listen_overflows" },
  listen_drops: { raw: "listen_drops", rollup: "listen_drops" },
  tw_overflows: { raw: "tw_overflows", rollup: "tw_overflows" },
  latency_p95_ms: { raw: "total_ms", rollup: "histogram" },
  lag_blocks: { raw: "lag_blocks", rollup: "lag_blocks_sum::float8 / nullif(lag_samples, 0)" },
  head_age_ms: { raw: "head_age_ms", rollup: "head_age_ms_max" },
  // Rollups: both per-bucket maxima, so about the bucket's last sample.
  finality_lag_blocks: { raw: "head_block - finalized_block", rollup: "head_block - finalized_block" },
  close_wait: { raw: "tcp_close_wait", rollup: "close_wait_max" },
  orphans: { raw: "sock_orphan", rollup: "sock_orphan_max" },
  fin_wait2: { raw: "tcp_fin_wait2", rollup: "fin_wait2_max" },
  conntrack_ratio: {
    raw: "conntrack_count::float8 / nullif(conntrack_max, 0)",
    rollup: "conntrack_count_max::float8 / nullif(conntrack_max, 0)",
  },
  fd_ratio: { raw: "open_fds::float8 / nullif(fd_limit, 0)", rollup: "open_fds_max::float8 / nullif(fd_limit, 0)" },
  top_ip_connections: { raw: "top_ip", rollup: null },
  // All listed connections per sample (the Substrate RPC connection cap's verification series).
  rpc_connections: { raw: "sum_ip", rollup: null },
  peers: { raw: "peers", rollup: "peers_min" },
  mem_available_ratio: {
    raw: "mem_available::float8 / nullif(mem_total, 0)",
    rollup: "mem_available_min::float8 / nullif(mem_total, 0)",
  },
  // Free bytes of /dev/shm: its total is constant, so the comparison's verdict is the ratio's.
  shm_free_ratio: { raw: "shm_free", rollup: "shm_free_min" },
  // The advisor's clockOffsetOf: |ingest-measured skew|, or how far a head timestamp is ahead of the host clock.
  clock_skew_ms: {
    raw: "CASE WHEN clock_skew_ms IS NOT NULL OR head_age_ms IS NOT NULL THEN greatest(abs(clock_skew_ms), -least(head_age_ms, 0)) END",
    rollup: "greatest(clock_skew_ms_max, -least(head_age_ms_max, 0))",
  },
};

function rawSql(metric: AdvisorSeriesMetric): string {
  if (metric === "top_ip_connections" || metric === "rpc_connections") {
    const aggregate = metric === "top_ip_connections" ? "max" : "sum";
    return `
SELECT s.time,
  coalesce(
    (SELECT ${aggregate}(r.conns) FROM node_remote_ips r WHERE r.node_id = s.node_id AND r.time = s.time),
    -- No remote-IP row at a sample that counted remote IPs: nobody was connected.
    CASE WHEN s.distinct_remote_ips IS NOT NULL THEN 0 END
  )::float8 AS value
FROM node_samples s
WHERE s.node_id = $1 AND s.time >= $2 AND s.time < $3
ORDER BY s.time`;
  }
  return `
SELECT time, (${EXPRESSIONS[metric].raw})::float8 AS value
FROM node_samples
WHERE node_id = $1 AND time >= $2 AND time < $3
ORDER BY time`;
}

function rollupSql(metric: AdvisorSeriesMetric): string {
  const expression = EXPRESSIONS[metric].rollup;
  if (expression === "histogram") {
    return `
SELECT bucket AS time, total_ms_min::float8 AS lo, total_ms_max::float8 AS hi,
  ARRAY[lat_le_5, lat_le_10, lat_le_25, lat_le_50, lat_le_100, lat_le_250, lat_le_500,
        lat_le_1000, lat_le_2500, lat_le_5000, lat_gt_5000] AS histogram
FROM node_samples_1m
WHERE node_id = $1 AND bucket >= $2 AND bucket < $3
ORDER BY bucket`;
  }
  return `
SELECT bucket AS time, (${expression})::float8 AS value
FROM node_samples_1m
WHERE node_id = $1 AND bucket >= $2 AND bucket < $3
ORDER BY bucket`;
}

export const GetAdvisorMetricSeriesParams = z
  .object({
    nodeId: z.string().uuid(),
    metric: z.enum(ADVISOR_SERIES_METRICS),
    from: z.coerce.date(),
    to: z.coerce.date(),
  })
  .refine((p) => p.from.getTime() < p.to.getTime(), { message: "from must be before to", path: ["from"] });
export type GetAdvisorMetricSeriesParams = z.input<typeof GetAdvisorMetricSeriesParams>;

export interface AdvisorMetricPoint {
  time: Date;
  value: number;
}

const ValueRow = z.object({ time: dbDate, value: dbNumberOrNull });
const HistogramRow = z.object({ time: dbDate, lo: dbNumberOrNull, hi: dbNumberOrNull, histogram: dbNumberArray });

/**
 * One target metric of a node over [from, to), oldest first; points without a value (the agent
 * could not read the source) are left out. `resolution` says which relation was read.
 */
export async function getAdvisorMetricSeries(
  sql: SqlClient,
  params: GetAdvisorMetricSeriesParams,
): Promise<{ resolution: "raw" | "1m"; points: AdvisorMetricPoint[] }> {
  const p = GetAdvisorMetricSeriesParams.parse(params);
  const long = p.to.getTime() - p.from.getTime() > RAW_SERIES_MAX_MS;
  const resolution = long && EXPRESSIONS[p.metric].rollup !== null ? "1m" : "raw";
  const text = resolution === "raw" ? rawSql(p.metric) : rollupSql(p.metric);
  const { rows } = await sql.query(text, [p.nodeId, p.from, p.to]);
  const points: AdvisorMetricPoint[] = [];
  for (const raw of rows) {
    if (resolution === "1m" && p.metric === "latency_p95_ms") {
      const r = HistogramRow.parse(raw);
      const value = estimateQuantile(r.histogram, 0.95, r.lo, r.hi);
      if (value !== null && Number.isFinite(value)) points.push({ time: r.time, value });
      continue;
    }
    const r = ValueRow.parse(raw);
    if (r.value !== null && Number.isFinite(r.value)) points.push({ time: r.time, value: r.value });
  }
  return { resolution, points };
}
