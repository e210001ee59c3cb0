import { gzipSync } from "node:zlib";
import { WIRE_FORMAT_VERSION, type AgentBatch, type AgentSample } from "@rpcpulse/domain";
import { ingestBatchStream, ingestJobId } from "@rpcpulse/queue";

/**
 * Deterministic agent batches in the wire format (what rpcpulse-agent sends), for tests and
 * benches. Values vary with the node and sample index so rows are distinguishable.
 */
export interface SampleOptions {
  /** Remote IPs in the sample's top list (default 5). */
  remoteIps?: number;
  headBlock?: number;
}

export function makeAgentSample(collectedAt: Date, index: number, options: SampleOptions = {}): AgentSample {
  const remoteIps = options.remoteIps ?? 5;
  const head = options.headBlock ?? 1_000_000 + index;
  return {
    collectedAt: collectedAt.toISOString(),
    tcp: {
      states: {
        established: 100 + (index % 50),
        synSent: 0,
        synRecv: index % 3,
        finWait1: 0,
        finWait2: 1,
        timeWait: 40 + (index % 7),
        close: 0,
        closeWait: 2,
        lastAck: 0,
        listen: 6,
        closing: 0,
      },
      total: 160,
      ipv4: 150,
      ipv6: 10,
      timeWaitInbound: 30,
      timeWaitOutbound: 10 + (index % 7),
      listeningPorts: [22, 8090, 8091, 2001],
      scanMs: 1.25,
    },
    sockstat: {
      socketsUsed: 300,
      tcpInuse: 120,
      tcpOrphan: 0,
      tcpTw: 45,
      tcpAlloc: 130,
      tcpMemPages: 12,
      tcpMemBytes: 49_152,
      tcp6Inuse: 4,
    },
    netstat: {
      listenOverflows: { total: 10, delta: 0 },
      listenDrops: { total: 10, delta: 0 },
      tcpTimeWaitOverflow: { total: 0, delta: 0 },
      intervalMs: 10_000,
      counterReset: false,
    },
    conntrack: { count: 200, max: 262_144 },
    fds: {
      systemAllocated: 4_000,
      systemMax: 2_000_000,
      process: { pid: 1234, name: "hived", openFds: 900, softLimit: 65_536, hardLimit: 65_536 },
    },
    host: {
      cpuPct: 12.5,
      cpuCount: 8,
      load1: 0.8,
      load5: 0.7,
      load15: 0.6,
      memTotalBytes: 64 * 2 ** 30,
      memAvailableBytes: 40 * 2 ** 30,
      shmemBytes: 2 ** 30,
      swapTotalBytes: 0,
      swapUsedBytes: 0,
      uptimeSeconds: 86_400 + index,
    },
    disks: [
      {
        path: "/var/lib/hived",
        totalBytes: 2 * 2 ** 40,
        freeBytes: 2 ** 40,
        availableBytes: 2 ** 40,
        inodesTotal: 1_000_000,
        inodesFree: 900_000,
        error: null,
      },
      {
        path: "/dev/shm",
        totalBytes: 32 * 2 ** 30,
        freeBytes: 8 * 2 ** 30,
        availableBytes: 8 * 2 ** 30,
        inodesTotal: 100,
        inodesFree: 90,
        error: null,
      },
    ],
    settings: {
      tcpTwReuse: 2,
      tcpFinTimeout: 60,
      somaxconn: 4096,
      tcpMaxSynBacklog: 2048,
      tcpMaxTwBuckets: 131_072,
      ipLocalPortRange: { low: 32_768, high: 60_999, size: 28_232 },
      tcpTwRecycleLines: [],
    },
    chain: {
      family: "hive",
      ok: true,
      headBlock: head,
      headHash: null,
      headTime: new Date(collectedAt.getTime() - 1_500).toISOString(),
      headTimeSource: "block",
      headAgeMs: 1_500,
      finalizedBlock: head - 20,
      peers: 30,
      syncing: false,
      clientVersion: "hived 1.27.5",
      latency: { connectMs: null, firstByteMs: 1.234, totalMs: 1.5 },
      error: null,
    },
    remoteIps: {
      ports: [8090, 8091],
      distinctIps: remoteIps,
      totalConnections: remoteIps * 3,
      top: Array.from({ length: remoteIps }, (_, i) => ({
        ip: `10.${(index >> 8) & 255}.${index & 255}.${i + 1}`,
        connections: 3 + i,
        established: 3 + i,
        timeWait: 1,
      })),
    },
    outbound: {
      portRange: { low: 32_768, high: 60_999, size: 28_232 },
      distinctDestinations: 1,
      totalSockets: 12,
      top: [{ ip: "127.0.0.1", port: 5432, sockets: 12, established: 10, timeWait: 2, portRangeUsage: 0.0004 }],
    },
    self: { cpuPct: 0.3, rssBytes: 40_000_000, collectMs: 3.2, spoolBacklog: 0, spoolDropped: 0 },
    errors: [],
  };
}

export interface BatchOptions extends SampleOptions {
  samples?: number;
  /** Time of the first sample; the rest follow every intervalMs. */
  start?: Date;
  intervalMs?: number;
  sentAt?: Date;
  nodeId?: string;
  /** The agent install's id (wire installId); omitted = an agent that predates it. */
  installId?: string;
}

export function makeAgentBatch(batchSeq: number, options: BatchOptions = {}): AgentBatch {
  const count = options.samples ?? 10;
  const intervalMs = options.intervalMs ?? 10_000;
  const start = options.start ?? new Date(Date.now() - count * intervalMs);
  const samples = Array.from({ length: count }, (_, i) =>
    makeAgentSample(new Date(start.getTime() + i * intervalMs), batchSeq * count + i, options),
  );
  return {
    wireVersion: WIRE_FORMAT_VERSION,
    agent: { version: "0.1.0", hostname: "node-1.example" },
    ...(options.nodeId ? { nodeId: options.nodeId } : {}),
    batchSeq,
    ...(options.installId ? { installId: options.installId } : {}),
    sentAt: (options.sentAt ?? new Date()).toISOString(),
    samples,
  };
}

export function gzipBatch(batch: unknown): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(batch)));
}

/** The BullMQ job id the ingest API gives this batch of this node. */
export function ingestJobIdOf(nodeId: string, batch: AgentBatch): string {
  const first = Date.parse(batch.samples[0]!.collectedAt);
  return ingestJobId(
    nodeId,
    ingestBatchStream({ installId: batch.installId, samples: { time: [first] } }),
    batch.batchSeq,
  );
}
