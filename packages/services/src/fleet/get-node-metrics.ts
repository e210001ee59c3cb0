import {
  finalityLagOf,
  getLatestNodeSamples,
  getNodeSeries,
  getRemoteIpSeries,
  getTopRemoteIps,
  listNodeHeads,
  type NodeSeriesPoint,
  type TopRemoteIp,
} from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import type { ServiceContext, ServiceDeps } from "../context.js";
import { getNode } from "./nodes/get-node.js";
import { computeNodeStatus, type NodeStatus } from "./node-status.js";
import { describePublicHead, type PublicHeadView } from "./public-head-view.js";

export const METRIC_RANGES = ["1h", "24h", "7d", "30d"] as const;
export const MetricRange = z.enum(METRIC_RANGES);
export type MetricRange = z.infer<typeof MetricRange>;

const RANGE_MS: Record<MetricRange, number> = {
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
};

/** Bucket of the remote-IP chart per range (one of REMOTE_IP_BUCKET_SECONDS). */
const IP_BUCKET_SECONDS: Record<MetricRange, 60 | 600 | 3_600 | 21_600> = {
  "1h": 60,
  "24h": 600,
  "7d": 3_600,
  "30d": 21_600,
};

/** Series keys sent to the charts, in columns (one array per key, aligned with `time`). */
export const SERIES_KEYS = [
  "establishedAvg",
  "timeWaitAvg",
  "closeWaitMax",
  "synRecvMax",
  "timeWaitInMax",
  "timeWaitOutMax",
  "lagBlocksMax",
  "headAgeMsMax",
  "finalityLagBlocks",
  "connectMsAvg",
  "ttfbMsAvg",
  "totalMsAvg",
  "totalMsP95",
  "memAvailableMin",
  "memTotal",
  "swapUsedMax",
  "diskFreeMin",
  "diskTotal",
  "shmFreeMin",
] as const satisfies readonly (keyof NodeSeriesPoint)[];
export type SeriesKey = (typeof SERIES_KEYS)[number];

export interface NodeMetrics {
  /** The node's state now (same rules as the fleet overview). */
  node: {
    status: NodeStatus;
    lastSeenAt: string | null;
    agentVersion: string | null;
    clientVersion: string | null;
    lagBlocks: number | null;
    headAgeMs: number | null;
    /** Newest sample: head and finalized block, and head − finalized. */
    headBlock: number | null;
    finalizedBlock: number | null;
    finalityLagBlocks: number | null;
    /** Latest check of the public URL next to the node's own head (null: none, or not checked yet). */
    publicHead: PublicHeadView | null;
  };
  range: MetricRange;
  from: string;
  to: string;
  resolution: "raw" | "1m" | "1h";
  /** Unix seconds of each point. */
  time: number[];
  series: Record<SeriesKey, (number | null)[]>;
  topRemoteIps: TopRemoteIp[];
  remoteIps: { bucketSeconds: number; time: number[]; ips: string[]; conns: (number | null)[][] };
}

/**
 * A node's charts for a range ending now (any member of the node's organization). Ranges up to 6 h
 * read raw samples, 24 h and 7 d the 1-minute rollups, 30 d the 1-hour rollups (getNodeSeries auto).
 */
export async function getNodeMetrics(
  deps: ServiceDeps & { sql: SqlClient },
  ctx: ServiceContext,
  input: { nodeId: string; range: unknown; now?: Date },
): Promise<NodeMetrics> {
  const range = MetricRange.catch("1h").parse(input.range);
  const node = await getNode(deps, ctx, { nodeId: input.nodeId });
  const to = input.now ?? new Date();
  const from = new Date(to.getTime() - RANGE_MS[range]);
  const [series, top, latest, heads] = await Promise.all([
    getNodeSeries(deps.sql, { nodeId: node.id, from, to, resolution: "auto" }),
    getTopRemoteIps(deps.sql, { nodeId: node.id, from, to, limit: 10 }),
    getLatestNodeSamples(deps.sql, [node.id]).then((rows) => rows[0] ?? null),
    listNodeHeads(deps.sql, [node.id]).then((rows) => rows[0] ?? null),
  ]);
  const lastSeenAt =
    latest && (!node.lastSeenAt || latest.time.getTime() > node.lastSeenAt.getTime()) ? latest.time : node.lastSeenAt;
  const headAgeMs = latest?.headTime
    ? Math.max(0, to.getTime() - latest.headTime.getTime())
    : (latest?.headAgeMs ?? null);
  const status = computeNodeStatus(
    {
      lastSeenAt,
      lagBlocks: latest?.lagBlocks ?? null,
      headAgeMs,
      syncing: latest?.syncing ?? null,
      blockIntervalMs: node.blockIntervalMs,
    },
    to,
  );
  const bucketSeconds = IP_BUCKET_SECONDS[range];
  const ipPoints = await getRemoteIpSeries(deps.sql, {
    nodeId: node.id,
    from,
    to,
    ips: top.slice(0, 5).map((t) => t.ip),
    bucketSeconds,
  });

  const columns = Object.fromEntries(SERIES_KEYS.map((k) => [k, [] as (number | null)[]])) as NodeMetrics["series"];
  const time: number[] = [];
  for (const p of series.points) {
    time.push(Math.floor(p.time.getTime() / 1000));
    for (const k of SERIES_KEYS) columns[k].push(p[k]);
  }

  const ips = top.slice(0, 5).map((t) => t.ip);
  const ipTimes = [...new Set(ipPoints.map((p) => Math.floor(p.time.getTime() / 1000)))].sort((a, b) => a - b);
  const timeIndex = new Map(ipTimes.map((t, i) => [t, i]));
  const conns = ips.map(() => ipTimes.map((): number | null => null));
  for (const p of ipPoints) {
    const row = ips.indexOf(p.ip);
    const col = timeIndex.get(Math.floor(p.time.getTime() / 1000));
    if (row >= 0 && col !== undefined) conns[row]![col] = p.maxConns;
  }

  return {
    node: {
      status,
      lastSeenAt: lastSeenAt?.toISOString() ?? null,
      agentVersion: node.agentVersion,
      clientVersion: node.clientVersion,
      lagBlocks: latest?.lagBlocks ?? null,
      headAgeMs,
      headBlock: heads?.headBlock ?? null,
      finalizedBlock: heads?.finalizedBlock ?? null,
      finalityLagBlocks: finalityLagOf(heads?.headBlock ?? null, heads?.finalizedBlock ?? null),
      publicHead: describePublicHead({ publicHead: heads?.publicHead ?? null, blockIntervalMs: node.blockIntervalMs }),
    },
    range,
    from: from.toISOString(),
    to: to.toISOString(),
    resolution: series.resolution,
    time,
    series: columns,
    topRemoteIps: top,
    remoteIps: { bucketSeconds, time: ipTimes, ips, conns },
  };
}
