import type { ColumnKind } from "./dashboards.js";

type Columns = readonly (readonly [string, ColumnKind])[];

const series = (...values: string[]): Columns => [["time", "time"], ...values.map((v) => [v, "number"] as const)];
const perNode = (value: string): Columns => [
  ["time", "time"],
  ["metric", "text"],
  [value, "number"],
];

/**
 * The columns each panel's query must return (dashboard uid -> panel title -> columns in order).
 * A panel without an entry fails the test, so a new panel states its contract here.
 */
export const EXPECTED_COLUMNS: Record<string, Record<string, Columns>> = {
  "rpcpulse-fleet": {
    "Nodes by status": [
      ["Up", "number"],
      ["Lagging", "number"],
      ["Down", "number"],
      ["Nodes", "number"],
    ],
    Nodes: [
      ["id", "text"],
      ["Node", "text"],
      ["Network", "text"],
      ["Client", "text"],
      ["Agent", "text"],
      ["Status", "text"],
      ["Last seen", "time"],
      ["Head block", "number"],
      ["Head age", "number"],
      ["Lag", "number"],
      ["Latency p50", "number"],
      ["Latency p95", "number"],
      ["Connections", "number"],
      ["TIME_WAIT", "number"],
      ["TIME_WAIT in", "number"],
      ["TIME_WAIT out", "number"],
    ],
    "Head age by node (max)": perNode("head age"),
    "Latency p95 by node": perNode("p95"),
    "Established connections by node (max)": perNode("established"),
    "Witness missed blocks": perNode("missed"),
    "Witness price feed age": perNode("feed age"),
    "Consensus client slots behind by node (max)": perNode("slots behind"),
    "Consensus client peers by node (min)": perNode("peers"),
    "Validator era points against the set's median": [
      ["time", "time"],
      ["metric", "text"],
      ["points", "number"],
      ["median", "number"],
    ],
  },
  "rpcpulse-node": {
    Node: [
      ["Node", "text"],
      ["Network", "text"],
      ["Client", "text"],
      ["Agent", "text"],
      ["Last seen", "time"],
      ["Head block", "number"],
      ["Finalized block", "number"],
      ["Peers", "number"],
      ["Syncing", "bool"],
      ["Clock skew", "number"],
    ],
    "Connections by state (max)": series(
      "ESTABLISHED",
      "SYN_RECV",
      "FIN_WAIT1",
      "FIN_WAIT2",
      "TIME_WAIT",
      "CLOSE_WAIT",
      "LAST_ACK",
      "CLOSING",
      "LISTEN",
    ),
    "TIME_WAIT in / out (max)": series("TIME_WAIT in", "TIME_WAIT out", "sockstat tw"),
    "Listen overflows / drops": series("listen overflows", "listen drops", "TIME_WAIT overflows"),
    "Sockets and limits (max)": series(
      "open files",
      "conntrack",
      "ephemeral ports in use",
      "distinct remote IPs",
      "orphans",
    ),
    "Top remote IPs": [
      ["Remote IP", "text"],
      ["Max connections", "number"],
      ["Avg connections", "number"],
      ["Samples", "number"],
      ["Last seen", "time"],
    ],
    "Top remote IPs over time": perNode("conns"),
    "Head age and lag": series("head age", "lag max", "lag avg"),
    "RPC latency phases": series("connect avg", "first byte avg", "total avg", "total p95", "total max"),
    Memory: series("MemAvailable", "Shmem", "swap used", "MemTotal"),
    "Disk free": series("data dir free", "data dir size", "/dev/shm free"),
    "CPU and load": series("CPU avg", "CPU max", "load1 avg", "load1 max"),
    "Finality lag (head − finalized)": series("finality lag"),
    "Node head vs consensus head": series("node head", "consensus head"),
  },
};
