import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { estimateQuantile } from "../sql/latency-histogram.js";
import {
  dbDate,
  dbNumber,
  dbNumberArray,
  dbNumberOrNull,
  pickResolution,
  Resolution,
  TimeRange,
} from "../sql/row-values.js";

export const GetNodeSeriesParams = z
  .object({
    nodeId: z.string().uuid(),
    from: z.coerce.date(),
    to: z.coerce.date(),
    resolution: Resolution.default("auto"),
  })
  .superRefine((v, ctx) => {
    const r = TimeRange.safeParse(v);
    if (!r.success) ctx.addIssue({ code: "custom", message: "from must be before to", path: ["from"] });
  });
export type GetNodeSeriesParams = z.input<typeof GetNodeSeriesParams>;

/**
 * One point of a node's series. At raw resolution a point is one sample (avg = max = value,
 * samples = 1); from the rollups it is a 1-minute or 1-hour bucket. Averages divide by the count
 * of samples that carried the metric; p95 is estimated from the latency histogram.
 */
export const NodeSeriesPoint = z.object({
  time: z.date(),
  samples: z.number(),
  establishedAvg: z.number().nullable(),
  establishedMax: z.number().nullable(),
  timeWaitAvg: z.number().nullable(),
  timeWaitMax: z.number().nullable(),
  closeWaitMax: z.number().nullable(),
  synRecvMax: z.number().nullable(),
  timeWaitInMax: z.number().nullable(),
  timeWaitOutMax: z.number().nullable(),
  sockOrphanMax: z.number().nullable(),
  sockTwMax: z.number().nullable(),
  listenOverflows: z.number().nullable(),
  listenDrops: z.number().nullable(),
  twOverflows: z.number().nullable(),
  distinctRemoteIpsMax: z.number().nullable(),
  conntrackCountMax: z.number().nullable(),
  conntrackMax: z.number().nullable(),
  openFdsMax: z.number().nullable(),
  fdLimit: z.number().nullable(),
  ephemeralInUseMax: z.number().nullable(),
  ephemeralRange: z.number().nullable(),
  headBlock: z.number().nullable(),
  finalizedBlock: z.number().nullable(),
  /**
   * head − finalized (blocks not yet final). Raw: the sample's own. Rollups: max(head) − max(finalized)
   * of the bucket, both non-decreasing, so about the bucket's last sample (not its worst).
   */
  finalityLagBlocks: z.number().nullable(),
  lagBlocksAvg: z.number().nullable(),
  lagBlocksMax: z.number().nullable(),
  headAgeMsMax: z.number().nullable(),
  peersMin: z.number().nullable(),
  peersAvg: z.number().nullable(),
  syncingSamples: z.number(),
  rpcSamples: z.number(),
  connectMsAvg: z.number().nullable(),
  ttfbMsAvg: z.number().nullable(),
  totalMsAvg: z.number().nullable(),
  totalMsMin: z.number().nullable(),
  totalMsMax: z.number().nullable(),
  totalMsP95: z.number().nullable(),
  cpuPctAvg: z.number().nullable(),
  cpuPctMax: z.number().nullable(),
  load1Avg: z.number().nullable(),
  load1Max: z.number().nullable(),
  memAvailableMin: z.number().nullable(),
  memTotal: z.number().nullable(),
  swapUsedMax: z.number().nullable(),
  diskFreeMin: z.number().nullable(),
  diskTotal: z.number().nullable(),
  shmFreeMin: z.number().nullable(),
  clockSkewMsMax: z.number().nullable(),
});
export type NodeSeriesPoint = z.infer<typeof NodeSeriesPoint>;

const n = dbNumberOrNull;

/** Blocks between the head and the finalized block; null unless both are known (never negative). */
export function finalityLagOf(head: number | null, finalized: number | null): number | null {
  return head === null || finalized === null ? null : Math.max(0, head - finalized);
}
const SeriesRow = z
  .object({
    time: dbDate,
    samples: dbNumber,
    established_avg: n,
    established_max: n,
    time_wait_avg: n,
    time_wait_max: n,
    close_wait_max: n,
    syn_recv_max: n,
    time_wait_in_max: n,
    time_wait_out_max: n,
    sock_orphan_max: n,
    sock_tw_max: n,
    listen_overflows: n,
    listen_drops: n,
    tw_overflows: n,
    distinct_remote_ips_max: n,
    conntrack_count_max: n,
    conntrack_max: n,
    open_fds_max: n,
    fd_limit: n,
    ephemeral_in_use_max: n,
    ephemeral_range: n,
    head_block: n,
    finalized_block: n,
    lag_blocks_avg: n,
    lag_blocks_max: n,
    head_age_ms_max: n,
    peers_min: n,
    peers_avg: n,
    syncing_samples: dbNumber,
    rpc_samples: dbNumber,
    connect_ms_avg: n,
    ttfb_ms_avg: n,
    total_ms_avg: n,
    total_ms_min: n,
    total_ms_max: n,
    /** Raw resolution: the sample's own latency. */
    total_ms_p95: n.optional(),
    /** Rollups: histogram counts, p95 estimated from them. */
    latency_histogram: dbNumberArray.optional(),
    cpu_pct_avg: n,
    cpu_pct_max: n,
    load1_avg: n,
    load1_max: n,
    mem_available_min: n,
    mem_total: n,
    swap_used_max: n,
    disk_free_min: n,
    disk_total: n,
    shm_free_min: n,
    clock_skew_ms_max: n,
  })
  .transform((r): NodeSeriesPoint => ({
    time: r.time,
    samples: r.samples,
    establishedAvg: r.established_avg,
    establishedMax: r.established_max,
    timeWaitAvg: r.time_wait_avg,
    timeWaitMax: r.time_wait_max,
    closeWaitMax: r.close_wait_max,
    synRecvMax: r.syn_recv_max,
    timeWaitInMax: r.time_wait_in_max,
    timeWaitOutMax: r.time_wait_out_max,
    sockOrphanMax: r.sock_orphan_max,
    sockTwMax: r.sock_tw_max,
    listenOverflows: r.listen_overflows,
    listenDrops: r.listen_drops,
    twOverflows: r.tw_overflows,
    distinctRemoteIpsMax: r.distinct_remote_ips_max,
    conntrackCountMax: r.conntrack_count_max,
    conntrackMax: r.conntrack_max,
    openFdsMax: r.open_fds_max,
    fdLimit: r.fd_limit,
    ephemeralInUseMax: r.ephemeral_in_use_max,
    ephemeralRange: r.ephemeral_range,
    headBlock: r.head_block,
    finalizedBlock: r.finalized_block,
    finalityLagBlocks: finalityLagOf(r.head_block, r.finalized_block),
    lagBlocksAvg: r.lag_blocks_avg,
    lagBlocksMax: r.lag_blocks_max,
    headAgeMsMax: r.head_age_ms_max,
    peersMin: r.peers_min,
    peersAvg: r.peers_avg,
    syncingSamples: r.syncing_samples,
    rpcSamples: r.rpc_samples,
    connectMsAvg: r.connect_ms_avg,
    ttfbMsAvg: r.ttfb_ms_avg,
    totalMsAvg: r.total_ms_avg,
    totalMsMin: r.total_ms_min,
    totalMsMax: r.total_ms_max,
    totalMsP95:
      r.total_ms_p95 !== undefined
        ? r.total_ms_p95
        : estimateQuantile(r.latency_histogram ?? [], 0.95, r.total_ms_min, r.total_ms_max),
    cpuPctAvg: r.cpu_pct_avg,
    cpuPctMax: r.cpu_pct_max,
    load1Avg: r.load1_avg,
    load1Max: r.load1_max,
    memAvailableMin: r.mem_available_min,
    memTotal: r.mem_total,
    swapUsedMax: r.swap_used_max,
    diskFreeMin: r.disk_free_min,
    diskTotal: r.disk_total,
    shmFreeMin: r.shm_free_min,
    clockSkewMsMax: r.clock_skew_ms_max,
  }));

const RAW_SQL = `
SELECT
  time, 1 AS samples,
  tcp_established::float8 AS established_avg, tcp_established AS established_max,
  tcp_time_wait::float8 AS time_wait_avg, tcp_time_wait AS time_wait_max,
  tcp_close_wait AS close_wait_max, tcp_syn_recv AS syn_recv_max,
  time_wait_in AS time_wait_in_max, time_wait_out AS time_wait_out_max,
  sock_orphan AS sock_orphan_max, sock_tw AS sock_tw_max,
  listen_overflows, listen_drops, tw_overflows,
  distinct_remote_ips AS distinct_remote_ips_max, conntrack_count AS conntrack_count_max, conntrack_max,
  open_fds AS open_fds_max, fd_limit, ephemeral_in_use AS ephemeral_in_use_max, ephemeral_range,
  head_block, finalized_block,
  lag_blocks::float8 AS lag_blocks_avg, lag_blocks AS lag_blocks_max, head_age_ms AS head_age_ms_max,
  peers AS peers_min, peers::float8 AS peers_avg,
  CASE WHEN syncing THEN 1 ELSE 0 END AS syncing_samples,
  CASE WHEN total_ms IS NULL THEN 0 ELSE 1 END AS rpc_samples,
  connect_ms::float8 AS connect_ms_avg, ttfb_ms::float8 AS ttfb_ms_avg, total_ms::float8 AS total_ms_avg,
  total_ms::float8 AS total_ms_min, total_ms::float8 AS total_ms_max, total_ms::float8 AS total_ms_p95,
  cpu_pct::float8 AS cpu_pct_avg, cpu_pct::float8 AS cpu_pct_max,
  load1::float8 AS load1_avg, load1::float8 AS load1_max,
  mem_available AS mem_available_min, mem_total, swap_used AS swap_used_max,
  disk_free AS disk_free_min, disk_total, shm_free AS shm_free_min,
  abs(clock_skew_ms) AS clock_skew_ms_max
FROM node_samples
WHERE node_id = $1 AND time >= $2 AND time < $3
ORDER BY time`;

/** Same select list over node_samples_1m or node_samples_1h (identical columns in both modes). */
function rollupSql(table: "node_samples_1m" | "node_samples_1h"): string {
  return `
SELECT
  bucket AS time, samples,
  established_sum::float8 / nullif(tcp_samples, 0) AS established_avg, established_max,
  time_wait_sum::float8 / nullif(tcp_samples, 0) AS time_wait_avg, time_wait_max,
  close_wait_max, syn_recv_max, time_wait_in_max, time_wait_out_max, sock_orphan_max, sock_tw_max,
  listen_overflows, listen_drops, tw_overflows,
  distinct_remote_ips_max, conntrack_count_max, conntrack_max,
  open_fds_max, fd_limit, ephemeral_in_use_max, ephemeral_range,
  head_block, finalized_block,
  lag_blocks_sum::float8 / nullif(lag_samples, 0) AS lag_blocks_avg, lag_blocks_max, head_age_ms_max,
  peers_min, peers_sum::float8 / nullif(peers_samples, 0) AS peers_avg,
  syncing_samples, rpc_samples,
  connect_ms_sum / nullif(rpc_samples, 0) AS connect_ms_avg,
  ttfb_ms_sum / nullif(rpc_samples, 0) AS ttfb_ms_avg,
  total_ms_sum / nullif(rpc_samples, 0) AS total_ms_avg,
  total_ms_min::float8 AS total_ms_min, total_ms_max::float8 AS total_ms_max,
  ARRAY[lat_le_5, lat_le_10, lat_le_25, lat_le_50, lat_le_100, lat_le_250, lat_le_500,
        lat_le_1000, lat_le_2500, lat_le_5000, lat_gt_5000] AS latency_histogram,
  cpu_pct_sum / nullif(host_samples, 0) AS cpu_pct_avg, cpu_pct_max::float8 AS cpu_pct_max,
  load1_sum / nullif(host_samples, 0) AS load1_avg, load1_max::float8 AS load1_max,
  mem_available_min, mem_total, swap_used_max, disk_free_min, disk_total, shm_free_min,
  clock_skew_ms_max
FROM ${table}
WHERE node_id = $1 AND bucket >= $2 AND bucket < $3
ORDER BY bucket`;
}

const SQL_BY_RESOLUTION = {
  raw: RAW_SQL,
  "1m": rollupSql("node_samples_1m"),
  "1h": rollupSql("node_samples_1h"),
} as const;

/**
 * A node's metrics over [from, to). raw reads node_samples; 1m and 1h read the rollups (only
 * refreshed buckets: see refreshRollups); auto picks by span (see pickResolution).
 */
export async function getNodeSeries(
  sql: SqlClient,
  params: GetNodeSeriesParams,
): Promise<{ resolution: "raw" | "1m" | "1h"; points: NodeSeriesPoint[] }> {
  const p = GetNodeSeriesParams.parse(params);
  const resolution = pickResolution(p.resolution, p.from, p.to);
  const { rows } = await sql.query(SQL_BY_RESOLUTION[resolution], [p.nodeId, p.from, p.to]);
  return { resolution, points: rows.map((r) => SeriesRow.parse(r)) };
}
