import { color, customVariable, dashboard, queryVariable, stat, table, timeSeries } from "./panels.js";
import { bucketExpr, HISTOGRAM_COLUMNS, histogramQuantile, rollupGuard, summedHistogram } from "./sql.js";

export const FLEET_UID = "rpcpulse-fleet";

/** One series per witness of the organization on the selected networks, from producer_samples. */
function producerSeries(value: string, label: string): string {
  return `SELECT ${bucketExpr("raw", "s.time")} AS time, '@' || s.account AS metric, ${value} AS "${label}"
FROM (
  SELECT ps.time, ps.total_missed, ps.feed_age_s, p.account,
         lag(ps.total_missed) OVER (PARTITION BY ps.producer_id ORDER BY ps.time) AS prev_missed
  FROM producer_samples ps
  JOIN producers p ON p.id = ps.producer_id
  WHERE p.organization_id = '$org'
    AND p.network_id = ANY (ARRAY[\${network:sqlstring}]::uuid[])
    AND ps.time BETWEEN $__timeFrom()::timestamptz - interval '1 hour' AND $__timeTo()
) s
WHERE s.time BETWEEN $__timeFrom() AND $__timeTo()
GROUP BY 1, 2
ORDER BY 1, 2`;
}

/** Era points and the set's median per validator stash (shortened) of the organization, from validator_samples. */
function validatorSeries(): string {
  return `SELECT ${bucketExpr("raw", "s.time")} AS time, left(p.account, 8) || '…' AS metric,
       max(s.era_points)::float8 AS "points", max(s.median_points)::float8 AS "median"
FROM validator_samples s
JOIN producers p ON p.id = s.producer_id
WHERE p.organization_id = '$org'
  AND p.network_id = ANY (ARRAY[\${network:sqlstring}]::uuid[])
  AND s.time BETWEEN $__timeFrom() AND $__timeTo()
GROUP BY 1, 2
ORDER BY 1, 2`;
}

/** One series per Ethereum node with a consensus client (beacon_samples, raw agent readings). */
function beaconSeries(value: string, label: string): string {
  return `SELECT ${bucketExpr("raw", "b.time")} AS time, n.name AS metric, ${value} AS "${label}"
FROM beacon_samples b
JOIN nodes n ON n.id = b.node_id
WHERE n.organization_id = '$org'
  AND n.network_id = ANY (ARRAY[\${network:sqlstring}]::uuid[])
  AND b.time BETWEEN $__timeFrom() AND $__timeTo()
GROUP BY 1, 2
ORDER BY 1, 2`;
}

/** Nodes of the selected organization and networks, with their newest sample and a status. */
const STATUS_CTE = `
WITH fleet AS (
  SELECT n.id, n.name, w.name AS network, w.block_interval_ms,
         n.client_name, n.client_version, n.agent_version,
         greatest(n.last_seen_at, l.time) AS last_seen,
         s.head_block, s.head_age_ms, s.lag_blocks,
         s.tcp_established, s.tcp_time_wait, s.time_wait_in, s.time_wait_out
  FROM nodes n
  JOIN networks w ON w.id = n.network_id
  LEFT JOIN node_latest l ON l.node_id = n.id
  LEFT JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
  WHERE n.organization_id = '$org'
    AND n.network_id = ANY (ARRAY[\${network:sqlstring}]::uuid[])
), status AS (
  SELECT f.*,
         CASE
           WHEN f.last_seen IS NULL
             OR f.last_seen < now() - 3 * make_interval(secs => '$agent_interval'::int) THEN 'down'
           WHEN f.lag_blocks >= '$lag_threshold'::int
             OR f.head_age_ms > '$lag_threshold'::int * f.block_interval_ms + 1000 * '$agent_interval'::int THEN 'lagging'
           ELSE 'up'
         END AS status
  FROM fleet f
)`;

const STATUS_DESCRIPTION =
  "down: no sample or push for 3 agent intervals (variable agent_interval). lagging: up, and lag_threshold " +
  "blocks or more behind the network head, or a head older than lag_threshold block intervals plus one agent " +
  "interval. up: everything else.";

const statusCounts = `${STATUS_CTE}
SELECT count(*) FILTER (WHERE status = 'up') AS "Up",
       count(*) FILTER (WHERE status = 'lagging') AS "Lagging",
       count(*) FILTER (WHERE status = 'down') AS "Down",
       count(*) AS "Nodes"
FROM status`;

const histogramColumns = HISTOGRAM_COLUMNS.join(", ");
/** Latency histogram of one node (st.id) over the range, from the 1m or 1h rollups. */
const nodeLatencyLateral = `LEFT JOIN LATERAL (
  SELECT ${summedHistogram()} AS h, min(total_ms_min)::float8 AS mn, max(total_ms_max)::float8 AS mx
  FROM (
    SELECT ${histogramColumns}, total_ms_min, total_ms_max
    FROM node_samples_1m
    WHERE node_id = st.id AND $__timeFilter(bucket) AND ${rollupGuard("1m")}
    UNION ALL
    SELECT ${histogramColumns}, total_ms_min, total_ms_max
    FROM node_samples_1h
    WHERE node_id = st.id AND $__timeFilter(bucket) AND ${rollupGuard("1h")}
  ) r
) lat ON true`;

const nodeTable = `${STATUS_CTE}
SELECT st.id::text AS "id",
       st.name AS "Node",
       st.network AS "Network",
       concat_ws(' ', st.client_name, st.client_version) AS "Client",
       st.agent_version AS "Agent",
       st.status AS "Status",
       st.last_seen AS "Last seen",
       st.head_block AS "Head block",
       (st.head_age_ms / 1000.0)::float8 AS "Head age",
       st.lag_blocks AS "Lag",
       ${histogramQuantile(0.5, "lat.h", "lat.mn", "lat.mx")} AS "Latency p50",
       ${histogramQuantile(0.95, "lat.h", "lat.mn", "lat.mx")} AS "Latency p95",
       st.tcp_established AS "Connections",
       st.tcp_time_wait AS "TIME_WAIT",
       st.time_wait_in AS "TIME_WAIT in",
       st.time_wait_out AS "TIME_WAIT out"
FROM status st
${nodeLatencyLateral}
ORDER BY CASE st.status WHEN 'down' THEN 0 WHEN 'lagging' THEN 1 ELSE 2 END, st.name`;

/** One series per node of the selection (metric = node name), from the rollups. */
function perNodeSeries(valueSql: string, alias: string): string {
  const branch = (relation: "1m" | "1h") => `SELECT ${bucketExpr(relation, "r.bucket")} AS time, n.name AS metric,
  ${valueSql} AS "${alias}"
FROM node_samples_${relation} r
JOIN nodes n ON n.id = r.node_id
WHERE n.organization_id = '$org'
  AND n.network_id = ANY (ARRAY[\${network:sqlstring}]::uuid[])
  AND $__timeFilter(r.bucket) AND ${rollupGuard(relation)}
GROUP BY 1, 2`;
  return `${branch("1m")}
UNION ALL
${branch("1h")}
ORDER BY 1, 2`;
}

const statusMappings = [
  {
    type: "value",
    options: {
      up: { color: "green", index: 0, text: "up" },
      lagging: { color: "orange", index: 1, text: "lagging" },
      down: { color: "red", index: 2, text: "down" },
    },
  },
];

export function fleetDashboard() {
  return dashboard({
    uid: FLEET_UID,
    title: "RPC Pulse / Fleet",
    description: "Every node of an organization: status, head, lag, latency and TCP state.",
    tags: ["rpcpulse"],
    time: { from: "now-6h", to: "now" },
    variables: [
      queryVariable({
        name: "org",
        label: "Organization",
        sql: "SELECT name AS __text, id AS __value FROM organizations ORDER BY name",
      }),
      queryVariable({
        name: "network",
        label: "Network",
        multi: true,
        includeAll: true,
        sql: `SELECT DISTINCT w.name AS __text, w.id::text AS __value
FROM networks w JOIN nodes n ON n.network_id = w.id
WHERE n.organization_id = '$org'
ORDER BY 1`,
      }),
      customVariable({
        name: "agent_interval",
        label: "Agent interval (s)",
        values: ["10", "15", "30", "60"],
        description: "The agents' collection interval; a node silent for three of them is down.",
      }),
      customVariable({
        name: "lag_threshold",
        label: "Lagging at (blocks)",
        values: ["3", "1", "5", "10", "50"],
        description: "Blocks behind the network head from which an up node counts as lagging.",
      }),
    ],
    links: [
      { type: "dashboards", tags: ["rpcpulse"], asDropdown: false, includeVars: true, keepTime: true, title: "" },
    ],
    panels: [
      stat(1, {
        title: "Nodes by status",
        description: STATUS_DESCRIPTION,
        gridPos: { h: 4, w: 24, x: 0, y: 0 },
        sql: statusCounts,
        overrides: [
          { field: "Up", properties: { color: color("green") } },
          { field: "Lagging", properties: { color: color("orange") } },
          { field: "Down", properties: { color: color("red") } },
        ],
      }),
      table(2, {
        title: "Nodes",
        description:
          `Newest sample of each node (node_latest). Latency p50/p95 over the range from the rollups' histograms ` +
          `(1-minute rollups up to 7 days, 1-hour beyond). ${STATUS_DESCRIPTION}`,
        gridPos: { h: 12, w: 24, x: 0, y: 4 },
        sql: nodeTable,
        overrides: [
          { field: "id", properties: { "custom.hidden": true } },
          {
            field: "Node",
            properties: {
              links: [
                {
                  title: "Node dashboard",
                  url: "/d/rpcpulse-node?var-org=${org}&var-node=${__data.fields.id}&${__url_time_range}",
                },
              ],
            },
          },
          {
            field: "Status",
            properties: { mappings: statusMappings, "custom.cellOptions": { type: "color-background" } },
          },
          { field: "Last seen", properties: { unit: "dateTimeFromNow" } },
          { field: "Head age", properties: { unit: "s", decimals: 1 } },
          { field: "Latency p50", properties: { unit: "ms", decimals: 1 } },
          { field: "Latency p95", properties: { unit: "ms", decimals: 1 } },
        ],
      }),
      timeSeries(3, {
        title: "Head age by node (max)",
        description: "Seconds since each node's head block was produced, maximum per interval (rollups).",
        gridPos: { h: 8, w: 8, x: 0, y: 16 },
        unit: "s",
        sql: perNodeSeries("(max(r.head_age_ms_max) / 1000.0)::float8", "head age"),
      }),
      timeSeries(4, {
        title: "Latency p95 by node",
        description: "Local RPC head call, p95 estimated from the rollups' latency histogram per interval.",
        gridPos: { h: 8, w: 8, x: 8, y: 16 },
        unit: "ms",
        sql: perNodeSeries(
          histogramQuantile(0.95, summedHistogram("r."), "min(r.total_ms_min)::float8", "max(r.total_ms_max)::float8"),
          "p95",
        ),
      }),
      timeSeries(5, {
        title: "Established connections by node (max)",
        description: "TCP ESTABLISHED sockets per node, maximum per interval (rollups).",
        gridPos: { h: 8, w: 8, x: 16, y: 16 },
        sql: perNodeSeries("max(r.established_max)", "established"),
      }),
      timeSeries(6, {
        title: "Witness missed blocks",
        description:
          "Blocks each registered witness missed per interval (growth of total_missed between the worker's reads, producer_samples).",
        gridPos: { h: 8, w: 12, x: 0, y: 24 },
        sql: producerSeries(
          "sum(greatest(0, s.total_missed - coalesce(s.prev_missed, s.total_missed)))::float8",
          "missed",
        ),
      }),
      timeSeries(7, {
        title: "Witness price feed age",
        description: "Hours since each witness last published its HBD/SBD price feed, maximum per interval.",
        gridPos: { h: 8, w: 12, x: 12, y: 24 },
        unit: "h",
        sql: producerSeries("(max(s.feed_age_s) / 3600.0)::float8", "feed age"),
      }),
      timeSeries(8, {
        title: "Validator era points against the set's median",
        description:
          "Era points of each registered Polkadot/Kusama validator and the active set's median at each read (validator_samples); points restart at each era.",
        gridPos: { h: 8, w: 24, x: 0, y: 32 },
        sql: validatorSeries(),
      }),
      timeSeries(9, {
        title: "Consensus client slots behind by node (max)",
        description:
          "Slots the node's consensus client head is behind the wall-clock slot (Beacon API, beacon_samples), maximum per interval; 1 slot = 12 s.",
        gridPos: { h: 8, w: 12, x: 0, y: 40 },
        sql: beaconSeries("max(b.slots_behind)::float8", "slots behind"),
      }),
      timeSeries(10, {
        title: "Consensus client peers by node (min)",
        description: "Peers of the node's consensus client (Beacon API /eth/v1/node/peer_count), minimum per interval.",
        gridPos: { h: 8, w: 12, x: 12, y: 40 },
        sql: beaconSeries("min(b.peers)::float8", "peers"),
      }),
    ],
  });
}
