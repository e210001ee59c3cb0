import type { AgentSample } from "./wire/agent-sample.js";

/**
 * The node-sample metric catalogue: every per-sample metric an agent reports and node_samples
 * stores, defined once. Each entry says
 *   field   its name in the normalised sample (ingest job columns, NodeSample, AdvisorSample),
 *   column  its node_samples column,
 *   kind    its PostgreSQL type as the COPY encoder and the SQL write it ("time" = timestamptz),
 *   signed  may be negative (the row schema refuses negatives otherwise),
 *   read    how it is read from one wire sample (plus the sample's data disk and /dev/shm disk).
 * Every list of the ingest contract is derived from it, in this order: the queue's job columns
 * and their check (@rpcpulse/queue), NODE_SAMPLE_METRICS, the COPY columns and encoder, the INSERT
 * lists and the row schema (@rpcpulse/db), the ingest normaliser (@rpcpulse/services) and the
 * advisor's wire adapter (@rpcpulse/advisor). Adding a metric: one entry here, one migration adding
 * the column (and the Prisma model, which the schema check compares with the migrations).
 * The order is the COPY column order and the job's key order: append, never reorder.
 */
export type NodeSampleMetricKind = "time" | "int8" | "int4" | "int2" | "float4" | "bool";

/** A disk of a wire sample (the data directory's filesystem, /dev/shm). */
export type AgentSampleDisk = AgentSample["disks"][number];

interface MetricBase {
  readonly field: string;
  readonly column: string;
  readonly signed?: boolean;
}

export type NodeSampleMetric =
  | (MetricBase & {
      readonly kind: Exclude<NodeSampleMetricKind, "bool">;
      /** The value, or null when the sample does not carry it. */
      readonly read: (
        s: AgentSample,
        data: AgentSampleDisk | undefined,
        shm: AgentSampleDisk | undefined,
      ) => number | null;
    })
  | (MetricBase & {
      readonly kind: "bool";
      readonly read: (
        s: AgentSample,
        data: AgentSampleDisk | undefined,
        shm: AgentSampleDisk | undefined,
      ) => boolean | null;
    });

const SHM = "/dev/shm";

/**
 * The two disks the catalogue's readers take from one wire sample: the node's data directory (the first
 * disk other than /dev/shm that has a size) and /dev/shm.
 */
export function pickSampleDisks(s: AgentSample): {
  data: AgentSampleDisk | undefined;
  shm: AgentSampleDisk | undefined;
} {
  let data: AgentSampleDisk | undefined;
  let shm: AgentSampleDisk | undefined;
  for (const d of s.disks) {
    if (d.path === SHM) shm ??= d;
    else if (d.totalBytes !== null) data ??= d;
  }
  return { data, shm };
}

const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);
const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v));
const epochMs = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);
const freeBytes = (d: AgentSampleDisk | undefined) => (d ? (d.availableBytes ?? d.freeBytes) : null);
/** The node process's file descriptors when the agent watches a process. */
const proc = (s: AgentSample) => s.fds?.process ?? null;

export const NODE_SAMPLE_METRIC_CATALOGUE = [
  { field: "headTime", column: "head_time", kind: "time", read: (s) => epochMs(s.chain?.headTime) },
  { field: "headBlock", column: "head_block", kind: "int8", read: (s) => orNull(s.chain?.headBlock) },
  { field: "finalizedBlock", column: "finalized_block", kind: "int8", read: (s) => orNull(s.chain?.finalizedBlock) },
  // Negative when the head is "from the future" (host clock behind).
  { field: "headAgeMs", column: "head_age_ms", kind: "int8", signed: true, read: (s) => round(s.chain?.headAgeMs) },
  // Bytes.
  { field: "memAvailable", column: "mem_available", kind: "int8", read: (s) => orNull(s.host?.memAvailableBytes) },
  { field: "memTotal", column: "mem_total", kind: "int8", read: (s) => orNull(s.host?.memTotalBytes) },
  { field: "shmem", column: "shmem", kind: "int8", read: (s) => orNull(s.host?.shmemBytes) },
  { field: "swapUsed", column: "swap_used", kind: "int8", read: (s) => orNull(s.host?.swapUsedBytes) },
  // Filesystem of the node's data directory (the first non-/dev/shm disk with a size), bytes.
  { field: "diskFree", column: "disk_free", kind: "int8", read: (_s, data) => freeBytes(data) },
  { field: "diskTotal", column: "disk_total", kind: "int8", read: (_s, data) => (data ? data.totalBytes : null) },
  // /dev/shm free bytes.
  { field: "shmFree", column: "shm_free", kind: "int8", read: (_s, _data, shm) => freeBytes(shm) },
  // The node process's limit, else the system-wide maximum of file handles.
  {
    field: "fdLimit",
    column: "fd_limit",
    kind: "int8",
    read: (s) => {
      const p = proc(s);
      return p ? p.softLimit : orNull(s.fds?.systemMax);
    },
  },
  { field: "tcpEstablished", column: "tcp_established", kind: "int4", read: (s) => orNull(s.tcp?.states?.established) },
  { field: "tcpSynRecv", column: "tcp_syn_recv", kind: "int4", read: (s) => orNull(s.tcp?.states?.synRecv) },
  { field: "tcpFinWait1", column: "tcp_fin_wait1", kind: "int4", read: (s) => orNull(s.tcp?.states?.finWait1) },
  { field: "tcpFinWait2", column: "tcp_fin_wait2", kind: "int4", read: (s) => orNull(s.tcp?.states?.finWait2) },
  { field: "tcpTimeWait", column: "tcp_time_wait", kind: "int4", read: (s) => orNull(s.tcp?.states?.timeWait) },
  { field: "tcpCloseWait", column: "tcp_close_wait", kind: "int4", read: (s) => orNull(s.tcp?.states?.closeWait) },
  { field: "tcpLastAck", column: "tcp_last_ack", kind: "int4", read: (s) => orNull(s.tcp?.states?.lastAck) },
  { field: "tcpClosing", column: "tcp_closing", kind: "int4", read: (s) => orNull(s.tcp?.states?.closing) },
  { field: "tcpListen", column: "tcp_listen", kind: "int4", read: (s) => orNull(s.tcp?.states?.listen) },
  { field: "timeWaitIn", column: "time_wait_in", kind: "int4", read: (s) => orNull(s.tcp?.timeWaitInbound) },
  { field: "timeWaitOut", column: "time_wait_out", kind: "int4", read: (s) => orNull(s.tcp?.timeWaitOutbound) },
  { field: "sockInuse", column: "sock_inuse", kind: "int4", read: (s) => orNull(s.sockstat?.tcpInuse) },
  { field: "sockOrphan", column: "sock_orphan", kind: "int4", read: (s) => orNull(s.sockstat?.tcpOrphan) },
  { field: "sockTw", column: "sock_tw", kind: "int4", read: (s) => orNull(s.sockstat?.tcpTw) },
  { field: "sockAlloc", column: "sock_alloc", kind: "int4", read: (s) => orNull(s.sockstat?.tcpAlloc) },
  // Pages.
  { field: "sockMem", column: "sock_mem", kind: "int4", read: (s) => orNull(s.sockstat?.tcpMemPages) },
  // Deltas since the previous sample (null on an agent's first sample).
  {
    field: "listenOverflows",
    column: "listen_overflows",
    kind: "int4",
    read: (s) => orNull(s.netstat?.listenOverflows.delta),
  },
  { field: "listenDrops", column: "listen_drops", kind: "int4", read: (s) => orNull(s.netstat?.listenDrops.delta) },
  {
    field: "twOverflows",
    column: "tw_overflows",
    kind: "int4",
    read: (s) => orNull(s.netstat?.tcpTimeWaitOverflow.delta),
  },
  {
    field: "distinctRemoteIps",
    column: "distinct_remote_ips",
    kind: "int4",
    read: (s) => orNull(s.remoteIps?.distinctIps),
  },
  { field: "conntrackCount", column: "conntrack_count", kind: "int4", read: (s) => orNull(s.conntrack?.count) },
  { field: "conntrackMax", column: "conntrack_max", kind: "int4", read: (s) => orNull(s.conntrack?.max) },
  // The node process's open files, else the system-wide allocated file handles.
  {
    field: "openFds",
    column: "open_fds",
    kind: "int4",
    read: (s) => {
      const p = proc(s);
      return p ? p.openFds : orNull(s.fds?.systemAllocated);
    },
  },
  // All outbound sockets (any destination) and the ephemeral port range's size.
  { field: "ephemeralInUse", column: "ephemeral_in_use", kind: "int4", read: (s) => orNull(s.outbound?.totalSockets) },
  {
    field: "ephemeralRange",
    column: "ephemeral_range",
    kind: "int4",
    read: (s) => orNull(s.outbound?.portRange?.size ?? s.settings?.ipLocalPortRange?.size),
  },
  // Phases of the agent's local RPC call, ms.
  { field: "connectMs", column: "connect_ms", kind: "float4", read: (s) => orNull(s.chain?.latency?.connectMs) },
  { field: "ttfbMs", column: "ttfb_ms", kind: "float4", read: (s) => orNull(s.chain?.latency?.firstByteMs) },
  { field: "totalMs", column: "total_ms", kind: "float4", read: (s) => orNull(s.chain?.latency?.totalMs) },
  { field: "cpuPct", column: "cpu_pct", kind: "float4", read: (s) => orNull(s.host?.cpuPct) },
  { field: "load1", column: "load1", kind: "float4", read: (s) => orNull(s.host?.load1) },
  { field: "peers", column: "peers", kind: "int2", read: (s) => orNull(s.chain?.peers) },
  { field: "syncing", column: "syncing", kind: "bool", read: (s) => orNull(s.chain?.syncing) },
] as const satisfies readonly NodeSampleMetric[];

export type NodeSampleMetricCatalogue = typeof NODE_SAMPLE_METRIC_CATALOGUE;
export type NodeSampleMetricEntry = NodeSampleMetricCatalogue[number];
export type NodeSampleMetricField = NodeSampleMetricEntry["field"];
/** Fields of the catalogue's boolean metrics, and of every other (numeric or time) metric. */
export type NodeSampleBooleanField = Extract<NodeSampleMetricEntry, { kind: "bool" }>["field"];
export type NodeSampleNumericField = Exclude<NodeSampleMetricField, NodeSampleBooleanField>;

/** [field, column, kind] of each metric, in catalogue order. */
export function metricTuplesOf<const C extends readonly NodeSampleMetric[]>(
  catalogue: C,
): { readonly [I in keyof C]: readonly [C[I]["field"], C[I]["column"], C[I]["kind"]] } {
  return catalogue.map((m) => [m.field, m.column, m.kind] as const) as never;
}

/** Fields of the numeric (and time) metrics and of the boolean ones, each in catalogue order. */
export function metricFieldsByKindOf<const C extends readonly NodeSampleMetric[]>(
  catalogue: C,
): {
  numeric: readonly Exclude<C[number], { kind: "bool" }>["field"][];
  boolean: readonly Extract<C[number], { kind: "bool" }>["field"][];
} {
  return {
    numeric: catalogue.filter((m) => m.kind !== "bool").map((m) => m.field) as never,
    boolean: catalogue.filter((m) => m.kind === "bool").map((m) => m.field) as never,
  };
}
