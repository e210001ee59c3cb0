import type { AgentSample, TcpStateCounts } from "@rpcpulse/domain";
import type { NodeMetricsReading } from "./node-metrics.js";

/**
 * The newest sample as Prometheus metric families: names prefixed `rpcpulse_agent_`, units in the
 * names (_seconds, _bytes, counters end in _total), label sets bounded (top-N remote IPs only, at
 * most 32 disks, fixed state/phase/direction values). A group the sample lacks is left out.
 */

export const METRIC_PREFIX = "rpcpulse_agent_";

export type MetricType = "gauge" | "counter";

export interface MetricSample {
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  /** Full name; a counter's ends in `_total` (the OpenMetrics renderer strips it for the family). */
  name: string;
  help: string;
  type: MetricType;
  /** OpenMetrics UNIT (the name's unit suffix), when it has one. */
  unit?: "seconds" | "bytes";
  samples: MetricSample[];
}

export interface MetricContext {
  nodeId?: string | undefined;
  /** Spool state at exposition time; null when not pushing (dry run). */
  spool?: { backlogBatches: number; droppedBatches: number; bytes: number } | null;
  nodeMetrics?: NodeMetricsReading | null;
}

const TCP_STATE_LABELS: Record<keyof TcpStateCounts, string> = {
  established: "established",
  synSent: "syn_sent",
  synRecv: "syn_recv",
  finWait1: "fin_wait1",
  finWait2: "fin_wait2",
  timeWait: "time_wait",
  close: "close",
  closeWait: "close_wait",
  lastAck: "last_ack",
  listen: "listen",
  closing: "closing",
};

class FamilyList {
  readonly families: MetricFamily[] = [];
  constructor(private readonly base: Record<string, string>) {}

  add(
    name: string,
    type: MetricType,
    help: string,
    samples: { labels?: Record<string, string>; value: number | null | undefined }[],
  ): void {
    const kept = samples
      .filter((s): s is { labels?: Record<string, string>; value: number } => typeof s.value === "number")
      .filter((s) => Number.isFinite(s.value))
      .map((s) => ({ labels: { ...this.base, ...s.labels }, value: s.value }));
    if (kept.length === 0) return;
    const full = `${METRIC_PREFIX}${name}`;
    const unit = /_seconds(_total)?$/.test(full) ? "seconds" : /_bytes(_total)?$/.test(full) ? "bytes" : undefined;
    this.families.push({ name: full, type, help, samples: kept, ...(unit ? { unit } : {}) });
  }

  one(name: string, type: MetricType, help: string, value: number | null | undefined, labels?: Record<string, string>) {
    this.add(name, type, help, [{ value, ...(labels ? { labels } : {}) }]);
  }
}

const ms = (v: number | null | undefined): number | null => (typeof v === "number" ? v / 1000 : null);

/** Build the metric families for one sample (pure; the tests parse the rendered text). */
export function buildMetricFamilies(sample: AgentSample, context: MetricContext = {}): MetricFamily[] {
  const base: Record<string, string> = context.nodeId ? { node_id: context.nodeId } : {};
  const out = new FamilyList(base);
  const collectedMs = Date.parse(sample.collectedAt);
  out.one("last_sample_timestamp_seconds", "gauge", "Unix time of the newest sample.", collectedMs / 1000);

  if (sample.tcp) {
    const states = sample.tcp.states;
    out.add(
      "tcp_connections",
      "gauge",
      "TCP sockets by state (IPv4 and IPv6).",
      (Object.keys(TCP_STATE_LABELS) as (keyof TcpStateCounts)[]).map((k) => ({
        labels: { state: TCP_STATE_LABELS[k] },
        value: states[k],
      })),
    );
    out.add(
      "tcp_time_wait_connections",
      "gauge",
      "TIME_WAIT sockets: inbound (a server port, harmless) and outbound (this host closed first; holds an ephemeral port).",
      [
        { labels: { direction: "inbound" }, value: sample.tcp.timeWaitInbound },
        { labels: { direction: "outbound" }, value: sample.tcp.timeWaitOutbound },
      ],
    );
  }
  if (sample.remoteIps) {
    out.one("remote_ips", "gauge", "Distinct remote IPs on the public ports.", sample.remoteIps.distinctIps);
    out.one(
      "remote_connections",
      "gauge",
      "Non-TIME_WAIT sockets over all remote IPs on the public ports.",
      sample.remoteIps.totalConnections,
    );
    // Bounded cardinality: only the top-N talkers (--top-n, at most 100) get an `ip` label.
    out.add(
      "remote_ip_connections",
      "gauge",
      "Non-TIME_WAIT sockets from one of the top remote IPs on the public ports (top N only).",
      sample.remoteIps.top.map((t) => ({ labels: { ip: t.ip }, value: t.connections })),
    );
  }
  if (sample.netstat) {
    const n = sample.netstat;
    out.one(
      "listen_overflows_total",
      "counter",
      "Accept-queue overflows (TcpExtListenOverflows).",
      n.listenOverflows.total,
    );
    out.one(
      "listen_drops_total",
      "counter",
      "SYNs dropped on listening sockets (TcpExtListenDrops).",
      n.listenDrops.total,
    );
    out.one(
      "tcp_time_wait_overflows_total",
      "counter",
      "TIME_WAIT sockets not created because tcp_max_tw_buckets was reached (TcpExtTCPTimeWaitOverflow).",
      n.tcpTimeWaitOverflow.total,
    );
  }
  addChain(out, sample, context.nodeMetrics ?? null);
  addHost(out, sample);
  if (sample.self) {
    out.one("process_resident_memory_bytes", "gauge", "Resident memory of the agent process.", sample.self.rssBytes);
    out.one("collect_duration_seconds", "gauge", "Time the newest collection took.", ms(sample.self.collectMs));
  }
  out.one("collect_errors", "gauge", "Collector errors in the newest sample.", sample.errors.length);
  if (context.spool) {
    out.one(
      "push_backlog_batches",
      "gauge",
      "Batches waiting in the spool to be pushed.",
      context.spool.backlogBatches,
    );
    out.one("spool_size_bytes", "gauge", "Size of the spool on disk.", context.spool.bytes);
    out.one(
      "spool_dropped_batches_total",
      "counter",
      "Batches the spool dropped (size/age bounds) since the agent started.",
      context.spool.droppedBatches,
    );
  }
  return out.families;
}

function addChain(out: FamilyList, sample: AgentSample, node: NodeMetricsReading | null): void {
  const c = sample.chain;
  if (c) {
    const fam = { family: c.family };
    out.one("chain_up", "gauge", "1 when the node answered the RPC calls of the newest sample.", c.ok ? 1 : 0, fam);
    out.one("chain_head_block", "gauge", "Head block number the node reports.", c.headBlock, fam);
    out.one("chain_finalized_block", "gauge", "Finalized (irreversible) block number.", c.finalizedBlock, fam);
    out.one(
      "chain_finality_lag_blocks",
      "gauge",
      "Head block minus finalized block.",
      c.headBlock !== null && c.finalizedBlock !== null ? Math.max(0, c.headBlock - c.finalizedBlock) : null,
      fam,
    );
    out.one(
      "chain_head_age_seconds",
      "gauge",
      "Sample time minus the head block's timestamp (negative when this host's clock is behind).",
      ms(c.headAgeMs),
      fam,
    );
    out.one("chain_peers", "gauge", "Peers the node is connected to.", c.peers, fam);
    out.one(
      "chain_syncing",
      "gauge",
      "1 while the node says it is syncing.",
      c.syncing === null ? null : c.syncing ? 1 : 0,
      fam,
    );
    if (c.latency) {
      out.add(
        "rpc_latency_seconds",
        "gauge",
        "Phases of the head RPC call: connect (null when reused), first byte, total.",
        [
          { labels: { ...fam, phase: "connect" }, value: ms(c.latency.connectMs) },
          { labels: { ...fam, phase: "first_byte" }, value: ms(c.latency.firstByteMs) },
          { labels: { ...fam, phase: "total" }, value: ms(c.latency.totalMs) },
        ],
      );
    }
  }
  if (node) {
    out.one(
      "node_metrics_up",
      "gauge",
      "1 when the node's own Prometheus endpoint was read for the newest sample.",
      node.ok ? 1 : 0,
    );
    out.one(
      "chain_sync_lag_blocks",
      "gauge",
      "Sync target (highest block seen from peers) minus the node's best block, from the node's own metrics.",
      node.syncTarget !== null && node.bestBlock !== null ? Math.max(0, node.syncTarget - node.bestBlock) : null,
    );
  }
}

function addHost(out: FamilyList, sample: AgentSample): void {
  const h = sample.host;
  if (h) {
    out.one("memory_total_bytes", "gauge", "Physical memory (MemTotal).", h.memTotalBytes);
    out.one("memory_available_bytes", "gauge", "Memory available to new work (MemAvailable).", h.memAvailableBytes);
    out.one("memory_shmem_bytes", "gauge", "Shared memory, including /dev/shm (Shmem).", h.shmemBytes);
    out.one("swap_used_bytes", "gauge", "Swap in use.", h.swapUsedBytes);
    out.one("load1", "gauge", "1-minute load average.", h.load1);
  }
  const disks = sample.disks.filter((d) => d.error === null);
  out.add(
    "disk_total_bytes",
    "gauge",
    "Size of the filesystem holding a watched path.",
    disks.map((d) => ({ labels: { path: d.path }, value: d.totalBytes })),
  );
  out.add(
    "disk_available_bytes",
    "gauge",
    "Space available to unprivileged users (df Avail).",
    disks.map((d) => ({ labels: { path: d.path }, value: d.availableBytes })),
  );
  out.add(
    "disk_free_inodes",
    "gauge",
    "Free inodes on the filesystem holding a watched path.",
    disks.map((d) => ({ labels: { path: d.path }, value: d.inodesFree })),
  );
  if (sample.fds) {
    out.one("system_open_files", "gauge", "File handles allocated system-wide (file-nr).", sample.fds.systemAllocated);
    out.one(
      "node_process_open_fds",
      "gauge",
      "Open file descriptors of the node process.",
      sample.fds.process?.openFds,
    );
    out.one(
      "node_process_max_fds",
      "gauge",
      "Soft open-files limit of the node process.",
      sample.fds.process?.softLimit,
    );
  }
  if (sample.conntrack) {
    out.one("conntrack_entries", "gauge", "Connection-tracking table entries.", sample.conntrack.count);
    out.one(
      "conntrack_entries_limit",
      "gauge",
      "Connection-tracking table size (nf_conntrack_max).",
      sample.conntrack.max,
    );
  }
}
