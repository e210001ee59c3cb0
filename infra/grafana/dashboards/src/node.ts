import { customVariable, dashboard, queryVariable, table, timeSeries } from "./panels.js";
import {
  bucketExpr,
  histogramQuantile,
  maxOf,
  NODE_ID,
  nodeSeriesSql,
  type SeriesColumn,
  summedHistogram,
} from "./sql.js";

export const NODE_UID = "rpcpulse-node";

const RESOLUTION_NOTE =
  "Reads raw samples up to 6 h, 1-minute rollups up to 7 d and 1-hour rollups beyond " +
  "(variable resolution = auto; or forced). Rollups hold complete minutes/hours only.";

const nodeInfo = `
SELECT n.name AS "Node",
       w.name AS "Network",
       concat_ws(' ', n.client_name, n.client_version) AS "Client",
       n.agent_version AS "Agent",
       greatest(n.last_seen_at, l.time) AS "Last seen",
       s.head_block AS "Head block",
       s.finalized_block AS "Finalized block",
       s.peers AS "Peers",
       s.syncing AS "Syncing",
       s.clock_skew_ms AS "Clock skew"
FROM nodes n
JOIN networks w ON w.id = n.network_id
LEFT JOIN node_latest l ON l.node_id = n.id
LEFT JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
WHERE n.id = ${NODE_ID}`;

const STATES: readonly (readonly [string, string, string])[] = [
  ["ESTABLISHED", "tcp_established", "established_max"],
  ["SYN_RECV", "tcp_syn_recv", "syn_recv_max"],
  ["FIN_WAIT1", "tcp_fin_wait1", "fin_wait1_max"],
  ["FIN_WAIT2", "tcp_fin_wait2", "fin_wait2_max"],
  ["TIME_WAIT", "tcp_time_wait", "time_wait_max"],
  ["CLOSE_WAIT", "tcp_close_wait", "close_wait_max"],
  ["LAST_ACK", "tcp_last_ack", "last_ack_max"],
  ["CLOSING", "tcp_closing", "closing_max"],
  ["LISTEN", "tcp_listen", "listen_max"],
];

/** Deltas summed per bucket (raw rows carry the delta since the previous sample). */
function sumOf(alias: string, column: string): SeriesColumn {
  return { alias, raw: `sum(${column})::bigint`, rollup: `sum(${column})::bigint` };
}

/** Average of a rollup metric: its sum over the count of samples that carried it. */
function avgOf(alias: string, rawColumn: string, rollupSum: string, rollupCount: string): SeriesColumn {
  return {
    alias,
    raw: `avg(${rawColumn})::float8`,
    rollup: `(sum(${rollupSum}) / nullif(sum(${rollupCount}), 0))::float8`,
  };
}

const topIpsFilter = `node_id = ${NODE_ID} AND $__timeFilter(time)`;

const topIpsTable = `
SELECT host(ip) AS "Remote IP",
       max(conns) AS "Max connections",
       avg(conns)::float8 AS "Avg connections",
       count(*) AS "Samples",
       max(time) AS "Last seen"
FROM node_remote_ips
WHERE ${topIpsFilter}
GROUP BY ip
ORDER BY 2 DESC, 1
LIMIT 20`;

const topIpsOverTime = `
WITH top AS (
  SELECT ip FROM node_remote_ips
  WHERE ${topIpsFilter}
  GROUP BY ip
  ORDER BY max(conns) DESC, ip
  LIMIT 8
)
SELECT ${bucketExpr("raw", "r.time")} AS time, host(r.ip) AS metric, max(r.conns) AS conns
FROM node_remote_ips r
JOIN top ON top.ip = r.ip
WHERE r.node_id = ${NODE_ID} AND $__timeFilter(r.time)
GROUP BY 1, 2
ORDER BY 1, 2`;

/**
 * The node's own head against the network's consensus head (network_heads, decided by the worker every
 * 10 s): the gap is the lag every RPC Pulse view shows. Raw samples and decisions, highest per interval.
 */
const headVsConsensus = `
SELECT b.time, max(b.node_head) AS "node head", max(b.consensus) AS "consensus head"
FROM (
  SELECT ${bucketExpr("raw", "s.time")} AS time, s.head_block AS node_head, NULL::bigint AS consensus
  FROM node_samples s
  WHERE s.node_id = ${NODE_ID} AND $__timeFilter(s.time)
  UNION ALL
  SELECT ${bucketExpr("raw", "h.time")} AS time, NULL::bigint, h.head_block
  FROM network_heads h
  JOIN nodes n ON n.network_id = h.network_id
  WHERE n.id = ${NODE_ID} AND $__timeFilter(h.time)
) b
GROUP BY 1
ORDER BY 1`;

export function nodeDashboard() {
  const half = (x: number, y: number) => ({ h: 8, w: 12, x, y });
  return dashboard({
    uid: NODE_UID,
    title: "RPC Pulse / Node",
    description:
      "One node as its agent sees it: TCP state, remote peers, head and lag, finality lag, RPC latency, host.",
    tags: ["rpcpulse"],
    time: { from: "now-3h", to: "now" },
    variables: [
      queryVariable({
        name: "org",
        label: "Organization",
        sql: "SELECT name AS __text, id AS __value FROM organizations ORDER BY name",
      }),
      queryVariable({
        name: "node",
        label: "Node",
        sql: "SELECT name AS __text, id::text AS __value FROM nodes WHERE organization_id = '$org' ORDER BY name",
      }),
      customVariable({
        name: "resolution",
        label: "Resolution",
        values: ["auto", "raw", "1m", "1h"],
        description: "auto: raw samples up to 6 h, 1-minute rollups up to 7 d, 1-hour rollups beyond.",
      }),
    ],
    links: [
      { type: "dashboards", tags: ["rpcpulse"], asDropdown: false, includeVars: true, keepTime: true, title: "" },
    ],
    panels: [
      table(1, {
        title: "Node",
        description: "Identity and newest sample (node_latest).",
        gridPos: { h: 4, w: 24, x: 0, y: 0 },
        sql: nodeInfo,
        overrides: [
          { field: "Last seen", properties: { unit: "dateTimeFromNow" } },
          { field: "Clock skew", properties: { unit: "ms" } },
        ],
      }),
      timeSeries(2, {
        title: "Connections by state (max)",
        description: `TCP sockets per state over IPv4 and IPv6, maximum per interval. ${RESOLUTION_NOTE}`,
        gridPos: half(0, 4),
        sql: nodeSeriesSql(STATES.map(([alias, raw, rollup]) => maxOf(alias, raw, rollup))),
      }),
      timeSeries(3, {
        title: "TIME_WAIT in / out (max)",
        description: `TIME_WAIT sockets whose local port is a listening port (in) or not (out); sockstat tw. ${RESOLUTION_NOTE}`,
        gridPos: half(12, 4),
        sql: nodeSeriesSql([
          maxOf("TIME_WAIT in", "time_wait_in", "time_wait_in_max"),
          maxOf("TIME_WAIT out", "time_wait_out", "time_wait_out_max"),
          maxOf("sockstat tw", "sock_tw", "sock_tw_max"),
        ]),
      }),
      timeSeries(4, {
        title: "Listen overflows / drops",
        description: `ListenOverflows, ListenDrops and TCPTimeWaitOverflow counted per interval. ${RESOLUTION_NOTE}`,
        gridPos: half(0, 12),
        sql: nodeSeriesSql([
          sumOf("listen overflows", "listen_overflows"),
          sumOf("listen drops", "listen_drops"),
          sumOf("TIME_WAIT overflows", "tw_overflows"),
        ]),
      }),
      timeSeries(5, {
        title: "Sockets and limits (max)",
        description: `Open files, conntrack entries, ephemeral ports in use, distinct remote IPs, orphans. ${RESOLUTION_NOTE}`,
        gridPos: half(12, 12),
        sql: nodeSeriesSql([
          maxOf("open files", "open_fds", "open_fds_max"),
          maxOf("conntrack", "conntrack_count", "conntrack_count_max"),
          maxOf("ephemeral ports in use", "ephemeral_in_use", "ephemeral_in_use_max"),
          maxOf("distinct remote IPs", "distinct_remote_ips", "distinct_remote_ips_max"),
          maxOf("orphans", "sock_orphan", "sock_orphan_max"),
        ]),
      }),
      table(6, {
        title: "Top remote IPs",
        description:
          "Remote IPs with the most connections to the node's public ports over the range (raw samples; the agent " +
          "reports its top N per sample, so Samples counts the samples an IP was among them).",
        gridPos: half(0, 20),
        sql: topIpsTable,
        sortBy: { displayName: "Max connections", desc: true },
        overrides: [{ field: "Last seen", properties: { unit: "dateTimeFromNow" } }],
      }),
      timeSeries(7, {
        title: "Top remote IPs over time",
        description: "Connections of the 8 busiest remote IPs of the range, maximum per interval (raw samples).",
        gridPos: half(12, 20),
        sql: topIpsOverTime,
      }),
      timeSeries(8, {
        title: "Head age and lag",
        description: `Seconds since the head block was produced (max) and blocks behind the network head. ${RESOLUTION_NOTE}`,
        gridPos: half(0, 28),
        unit: "short",
        rightAxis: { fields: ["head age"], unit: "s" },
        sql: nodeSeriesSql([
          {
            alias: "head age",
            raw: "(max(head_age_ms) / 1000.0)::float8",
            rollup: "(max(head_age_ms_max) / 1000.0)::float8",
          },
          maxOf("lag max", "lag_blocks", "lag_blocks_max"),
          avgOf("lag avg", "lag_blocks", "lag_blocks_sum", "lag_samples"),
        ]),
      }),
      timeSeries(9, {
        title: "RPC latency phases",
        description:
          "The agent's local head call: averages of connect, first byte and total; p95 of total (exact over raw " +
          `samples, estimated from the latency histogram over rollups); max. ${RESOLUTION_NOTE}`,
        gridPos: half(12, 28),
        unit: "ms",
        sql: nodeSeriesSql([
          avgOf("connect avg", "connect_ms", "connect_ms_sum", "rpc_samples"),
          avgOf("first byte avg", "ttfb_ms", "ttfb_ms_sum", "rpc_samples"),
          avgOf("total avg", "total_ms", "total_ms_sum", "rpc_samples"),
          {
            alias: "total p95",
            raw: "(percentile_cont(0.95) WITHIN GROUP (ORDER BY total_ms))::float8",
            rollup: histogramQuantile(
              0.95,
              summedHistogram(),
              "min(total_ms_min)::float8",
              "max(total_ms_max)::float8",
            ),
          },
          { alias: "total max", raw: "max(total_ms)::float8", rollup: "max(total_ms_max)::float8" },
        ]),
      }),
      timeSeries(10, {
        title: "Memory",
        description: `MemAvailable (min), Shmem (max), swap used (max) and MemTotal. ${RESOLUTION_NOTE}`,
        gridPos: { h: 8, w: 8, x: 0, y: 36 },
        unit: "bytes",
        sql: nodeSeriesSql([
          { alias: "MemAvailable", raw: "min(mem_available)", rollup: "min(mem_available_min)" },
          maxOf("Shmem", "shmem", "shmem_max"),
          maxOf("swap used", "swap_used", "swap_used_max"),
          maxOf("MemTotal", "mem_total", "mem_total"),
        ]),
      }),
      timeSeries(11, {
        title: "Disk free",
        description: `Free bytes of the node's data directory and of /dev/shm (minimum per interval). ${RESOLUTION_NOTE}`,
        gridPos: { h: 8, w: 8, x: 8, y: 36 },
        unit: "bytes",
        sql: nodeSeriesSql([
          { alias: "data dir free", raw: "min(disk_free)", rollup: "min(disk_free_min)" },
          maxOf("data dir size", "disk_total", "disk_total"),
          { alias: "/dev/shm free", raw: "min(shm_free)", rollup: "min(shm_free_min)" },
        ]),
      }),
      timeSeries(12, {
        title: "CPU and load",
        description: `CPU busy percent (avg, max) and 1-minute load average (avg, max). ${RESOLUTION_NOTE}`,
        gridPos: { h: 8, w: 8, x: 16, y: 36 },
        unit: "percent",
        rightAxis: { fields: ["load1 avg", "load1 max"], unit: "short" },
        sql: nodeSeriesSql([
          avgOf("CPU avg", "cpu_pct", "cpu_pct_sum", "host_samples"),
          { alias: "CPU max", raw: "max(cpu_pct)::float8", rollup: "max(cpu_pct_max)::float8" },
          avgOf("load1 avg", "load1", "load1_sum", "host_samples"),
          { alias: "load1 max", raw: "max(load1)::float8", rollup: "max(load1_max)::float8" },
        ]),
      }),
      timeSeries(13, {
        title: "Finality lag (head − finalized)",
        description:
          "Blocks not yet final: head minus the finalized block (Substrate GRANDPA finalized head, Ethereum " +
          "`finalized` tag, Hive/Steem last irreversible block), worst per interval. Over rollups each row is " +
          `max(head) − max(finalized) of its minute or hour, i.e. about its last sample. ${RESOLUTION_NOTE}`,
        gridPos: { h: 8, w: 24, x: 0, y: 44 },
        unit: "short",
        sql: nodeSeriesSql([maxOf("finality lag", "head_block - finalized_block", "head_block - finalized_block")]),
      }),
      timeSeries(14, {
        title: "Node head vs consensus head",
        description:
          "The node's head and its network's consensus head as the worker decides it (a quorum of independent " +
          "sources, every 10 s; see the README's consensus section). Their gap is the node's lag. Raw data, highest per interval.",
        gridPos: { h: 8, w: 24, x: 0, y: 52 },
        unit: "short",
        sql: headVsConsensus,
      }),
    ],
  });
}
