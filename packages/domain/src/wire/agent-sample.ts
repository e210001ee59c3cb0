import { z } from "zod";

/**
 * One sample of the node agent (`rpcpulse-agent`): everything collected in one interval.
 * Every group is nullable: null means "not available on this host or failed this cycle"
 * (the reason, if any, is in `errors`). Every array and string is bounded so a batch has a
 * computable worst-case size.
 */

export const WIRE_LIMITS = {
  /** Top remote IPs per sample (the agent's --top-n is capped by this). */
  maxRemoteIps: 100,
  /** Top outbound destinations (ip:port) per sample. */
  maxOutboundDestinations: 100,
  maxListeningPorts: 256,
  maxPublicPorts: 64,
  maxDisks: 32,
  maxStaleSysctlFindings: 32,
  /** Whitelisted command-line flags of the node process (settings.nodeArgs). */
  maxNodeArgs: 32,
  maxErrors: 32,
  maxSamplesPerBatch: 360,
  maxPathLength: 4096,
  maxMessageLength: 512,
  /** chain.headAgeMs bounds: a head timestamp at most a day ahead of the agent's clock, at most a century old. */
  maxHeadAheadMs: 86_400_000,
  maxHeadAgeMs: 3_155_760_000_000,
} as const;

const count = z.number().int().nonnegative();
const bytes = z.number().int().nonnegative();
const port = z.number().int().min(1).max(65535);
/** Non-negative millisecond duration, sub-millisecond precision allowed. */
const millis = z.number().nonnegative().max(86_400_000);
const timestamp = z.iso.datetime({ offset: true });
/** Textual IPv4 (dotted quad) or IPv6 address; IPv4-mapped IPv6 is normalised to IPv4 by the agent. */
const ipAddress = z.union([z.ipv4(), z.ipv6()]);

export const tcpStateCountsSchema = z.object({
  established: count,
  synSent: count,
  synRecv: count,
  finWait1: count,
  finWait2: count,
  timeWait: count,
  close: count,
  closeWait: count,
  lastAck: count,
  listen: count,
  closing: count,
});

export const tcpGroupSchema = z.object({
  /** Counts by state over IPv4 and IPv6 (from /proc/net/tcp and /proc/net/tcp6). */
  states: tcpStateCountsSchema,
  total: count,
  ipv4: count,
  ipv6: count,
  /**
   * TIME_WAIT on a server's port: listening now, or within the agent's last few minutes (a server that
   * exited), or outside the ephemeral range. Harmless: it holds no port a connect() needs.
   */
  timeWaitInbound: count,
  /** All other TIME_WAIT (this host closed first: uses an ephemeral port for 60 s). */
  timeWaitOutbound: count,
  listeningPorts: z.array(port).max(WIRE_LIMITS.maxListeningPorts),
  /** Time spent reading and parsing the socket tables. */
  scanMs: millis,
});

export const sockstatGroupSchema = z.object({
  socketsUsed: count.nullable(),
  tcpInuse: count,
  tcpOrphan: count,
  tcpTw: count,
  tcpAlloc: count,
  /** TCP memory in pages, as the kernel reports it, and converted with the page size. */
  tcpMemPages: count,
  tcpMemBytes: bytes,
  tcp6Inuse: count.nullable(),
});

const counterDelta = z.object({
  /** Counter value at this sample (since boot, per network namespace). */
  total: count,
  /** Increase since the previous sample; null on the first sample. After a reset (value went down) the new value. */
  delta: count.nullable(),
});

export const netstatGroupSchema = z.object({
  listenOverflows: counterDelta,
  listenDrops: counterDelta,
  tcpTimeWaitOverflow: counterDelta,
  /** Milliseconds since the previous sample the deltas cover; null on the first. */
  intervalMs: millis.nullable(),
  /** True when at least one counter went down since the previous sample (reboot or namespace change). */
  counterReset: z.boolean(),
});

export const conntrackGroupSchema = z.object({ count, max: count });

export const fdsGroupSchema = z.object({
  /** /proc/sys/fs/file-nr: allocated handles and the system-wide maximum. */
  systemAllocated: count,
  systemMax: count,
  /** The configured node process, when one is configured and found. */
  process: z
    .object({
      pid: z.number().int().positive(),
      name: z.string().max(64),
      openFds: count,
      softLimit: count.nullable(),
      hardLimit: count.nullable(),
    })
    .nullable(),
});

export const hostGroupSchema = z.object({
  /** Busy share of all CPUs since the previous sample, 0-100; null on the first sample. */
  cpuPct: z.number().min(0).max(100).nullable(),
  cpuCount: z.number().int().positive(),
  load1: z.number().nonnegative(),
  load5: z.number().nonnegative(),
  load15: z.number().nonnegative(),
  memTotalBytes: bytes,
  memAvailableBytes: bytes,
  shmemBytes: bytes,
  swapTotalBytes: bytes,
  swapUsedBytes: bytes,
  uptimeSeconds: z.number().nonnegative().nullable(),
});

export const diskSchema = z.object({
  path: z.string().min(1).max(WIRE_LIMITS.maxPathLength),
  /** null when statfs failed (the message is in `error`). */
  totalBytes: bytes.nullable(),
  freeBytes: bytes.nullable(),
  /** Free for unprivileged users (what `df` shows as Avail). */
  availableBytes: bytes.nullable(),
  inodesTotal: count.nullable(),
  inodesFree: count.nullable(),
  error: z.string().max(WIRE_LIMITS.maxMessageLength).nullable(),
});

export const portRangeSchema = z.object({ low: port, high: port, size: count });

export const staleSysctlSchema = z.object({
  file: z.string().min(1).max(WIRE_LIMITS.maxPathLength),
  line: z.number().int().positive(),
  text: z.string().max(WIRE_LIMITS.maxMessageLength),
});

/**
 * Command-line flags of the node process the agent reports (settings.nodeArgs), for the tuning
 * advisor. Only these are ever sent: a command line can hold secrets, so everything else is dropped
 * on the node. Matched case-insensitively, reported in this spelling.
 */
export const NODE_ARG_FLAGS = [
  // hived / steemd
  "--shared-file-dir",
  "--shared-file-size",
  "--shared-file-full-threshold",
  "--shared-file-scale-rate",
  "--p2p-endpoint",
  "--p2p-seed-node",
  "--p2p-max-connections",
  "--memory-replay-indices",
  // Nethermind
  "--Network.MaxActivePeers",
  "--Pruning.CacheMb",
  "--Db.StateDbWriteBufferSize",
  "--Db.MaxBytesPerSec",
  "--Db.StateDbDisableCompression",
  "--Db.StateDbBlockSize",
  "--Db.CompactionReadAhead",
  "--Init.MemoryHint",
  // Geth
  "--maxpeers",
  // Substrate / Polkadot
  "--rpc-max-connections",
  "--in-peers",
  "--out-peers",
] as const;

export const nodeArgSchema = z.object({
  flag: z.string().min(3).max(64),
  /** The value ("true" for a flag without one; repeated flags joined with ","). */
  value: z.string().max(256),
});

export const settingsGroupSchema = z.object({
  tcpTwReuse: z.number().int().nullable(),
  tcpFinTimeout: z.number().int().nullable(),
  somaxconn: z.number().int().nullable(),
  tcpMaxSynBacklog: z.number().int().nullable(),
  tcpMaxTwBuckets: z.number().int().nullable(),
  ipLocalPortRange: portRangeSchema.nullable(),
  /** Lines in sysctl files that still set net.ipv4.tcp_tw_recycle (removed in Linux 4.12). */
  tcpTwRecycleLines: z.array(staleSysctlSchema).max(WIRE_LIMITS.maxStaleSysctlFindings),
  /**
   * Whitelisted flags (NODE_ARG_FLAGS) from the node process's command line; null when no node
   * process is configured or found. Optional: agents before this field omit it.
   */
  nodeArgs: z.array(nodeArgSchema).max(WIRE_LIMITS.maxNodeArgs).nullable().optional(),
});

export const chainLatencySchema = z.object({
  /** TCP connect (and TLS, for https) done; null when an existing connection was reused. */
  connectMs: millis.nullable(),
  /** First response byte. */
  firstByteMs: millis,
  /** Whole response read. */
  totalMs: millis,
});

export const chainGroupSchema = z.object({
  family: z.enum(["hive", "ethereum", "substrate", "sidecar"]),
  ok: z.boolean(),
  headBlock: count.nullable(),
  headHash: z.string().max(130).nullable(),
  headTime: timestamp.nullable(),
  /** Where headTime comes from: the block itself, chain storage (Timestamp.Now), or the agent's first sight of that head. */
  headTimeSource: z.enum(["block", "storage", "first-seen"]).nullable(),
  /**
   * collectedAt − headTime in ms. Negative when the head's timestamp is ahead of the agent's clock
   * (this host's clock is behind the chain's), then `headAgeSkewed` is true. Agents before that
   * clamped it at 0. Clamped by the agent to [−maxHeadAheadMs, maxHeadAgeMs].
   */
  headAgeMs: z.number().min(-WIRE_LIMITS.maxHeadAheadMs).max(WIRE_LIMITS.maxHeadAgeMs).nullable(),
  /** true when headAgeMs is negative (the host clock is behind the block timestamps); absent on older agents. */
  headAgeSkewed: z.boolean().optional(),
  finalizedBlock: count.nullable(),
  peers: count.nullable(),
  syncing: z.boolean().nullable(),
  clientVersion: z.string().max(256).nullable(),
  /** Latency of the head call. */
  latency: chainLatencySchema.nullable(),
  error: z.string().max(WIRE_LIMITS.maxMessageLength).nullable(),
});

/**
 * The Ethereum consensus client beside the execution node (Beacon API, served alike by Lighthouse,
 * Prysm, Teku, Nimbus and Lodestar: https://ethereum.github.io/beacon-APIs/). wallSlot is the slot the
 * clock says it is (genesis_time from /eth/v1/beacon/genesis, 12 s slots); slotsBehind = wallSlot − headSlot.
 */
export const beaconGroupSchema = z.object({
  ok: z.boolean(),
  /** /eth/v1/beacon/headers/head → data.header.message.slot */
  headSlot: count.nullable(),
  wallSlot: count.nullable(),
  slotsBehind: z.number().int().min(-1_000_000).max(1_000_000_000).nullable(),
  /** /eth/v1/node/syncing → data.sync_distance, is_syncing, is_optimistic, el_offline */
  syncDistance: count.nullable(),
  syncing: z.boolean().nullable(),
  optimistic: z.boolean().nullable(),
  /** The execution client this beacon node drives is unreachable (el_offline; absent on old clients: null). */
  elOffline: z.boolean().nullable(),
  /** /eth/v1/node/peer_count → data.connected */
  peers: count.nullable(),
  /** /eth/v1/node/version → data.version */
  version: z.string().max(256).nullable(),
  /**
   * The beacon head's execution block: /eth/v1/beacon/blinded_blocks/head →
   * data.message.body.execution_payload_header.block_number / block_hash (Bellatrix and later). The
   * server compares them with the execution node's own head of the same sample (is this the EL the
   * beacon node drives?). Optional: agents before this field omit them; null when not read.
   */
  execBlock: count.nullable().optional(),
  execHash: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/)
    .nullable()
    .optional(),
  latency: chainLatencySchema.nullable(),
  error: z.string().max(WIRE_LIMITS.maxMessageLength).nullable(),
});

export const remoteIpSchema = z.object({
  ip: ipAddress,
  /** Sockets from this IP on the public ports that are not in TIME_WAIT (what connlimit counts). */
  connections: count,
  established: count,
  timeWait: count,
});

export const remoteIpsGroupSchema = z.object({
  /** The public ports the counts cover (configured, or the listening ports). */
  ports: z.array(port).max(WIRE_LIMITS.maxListeningPorts),
  distinctIps: count,
  /** Non-TIME_WAIT sockets over all remote IPs on those ports. */
  totalConnections: count,
  top: z.array(remoteIpSchema).max(WIRE_LIMITS.maxRemoteIps),
});

export const outboundDestinationSchema = z.object({
  ip: ipAddress,
  port,
  /** All sockets to this destination (any state but LISTEN), each holding a local port. */
  sockets: count,
  established: count,
  timeWait: count,
  /** sockets / ephemeral port range size. */
  portRangeUsage: z.number().nonnegative(),
});

export const outboundGroupSchema = z.object({
  portRange: portRangeSchema.nullable(),
  distinctDestinations: count,
  totalSockets: count,
  top: z.array(outboundDestinationSchema).max(WIRE_LIMITS.maxOutboundDestinations),
});

export const agentSelfSchema = z.object({
  /** The agent's own CPU use since its previous sample, % of one core; null on the first. */
  cpuPct: z.number().nonnegative().nullable(),
  rssBytes: bytes,
  collectMs: millis,
  /** Batches waiting in the on-disk spool when this sample was taken; null when not pushing. */
  spoolBacklog: count.nullable(),
  /** Batches the spool dropped (size/age bounds, oldest first) since the agent started; null when not pushing. */
  spoolDropped: count.nullable(),
});

export const collectErrorSchema = z.object({
  group: z.enum([
    "tcp",
    "sockstat",
    "netstat",
    "conntrack",
    "fds",
    "host",
    "disks",
    "settings",
    "chain",
    "remoteIps",
    "outbound",
    "self",
  ]),
  message: z.string().max(WIRE_LIMITS.maxMessageLength),
});

export const agentSampleSchema = z.object({
  collectedAt: timestamp,
  tcp: tcpGroupSchema.nullable(),
  sockstat: sockstatGroupSchema.nullable(),
  netstat: netstatGroupSchema.nullable(),
  conntrack: conntrackGroupSchema.nullable(),
  fds: fdsGroupSchema.nullable(),
  host: hostGroupSchema.nullable(),
  disks: z.array(diskSchema).max(WIRE_LIMITS.maxDisks),
  settings: settingsGroupSchema.nullable(),
  chain: chainGroupSchema.nullable(),
  /** Ethereum nodes with a consensus client configured (--beacon-url); absent on older agents and other nodes. */
  beacon: beaconGroupSchema.nullable().optional(),
  remoteIps: remoteIpsGroupSchema.nullable(),
  outbound: outboundGroupSchema.nullable(),
  self: agentSelfSchema.nullable(),
  errors: z.array(collectErrorSchema).max(WIRE_LIMITS.maxErrors),
});

export type AgentSample = z.infer<typeof agentSampleSchema>;
export type TcpGroup = z.infer<typeof tcpGroupSchema>;
export type TcpStateCounts = z.infer<typeof tcpStateCountsSchema>;
export type SockstatGroup = z.infer<typeof sockstatGroupSchema>;
export type NetstatGroup = z.infer<typeof netstatGroupSchema>;
export type ConntrackGroup = z.infer<typeof conntrackGroupSchema>;
export type FdsGroup = z.infer<typeof fdsGroupSchema>;
export type HostGroup = z.infer<typeof hostGroupSchema>;
export type DiskInfo = z.infer<typeof diskSchema>;
export type SettingsGroup = z.infer<typeof settingsGroupSchema>;
export type ChainGroup = z.infer<typeof chainGroupSchema>;
export type ChainLatency = z.infer<typeof chainLatencySchema>;
export type BeaconGroup = z.infer<typeof beaconGroupSchema>;
export type RemoteIpsGroup = z.infer<typeof remoteIpsGroupSchema>;
export type OutboundGroup = z.infer<typeof outboundGroupSchema>;
export type PortRange = z.infer<typeof portRangeSchema>;
export type NodeArg = z.infer<typeof nodeArgSchema>;
export type CollectError = z.infer<typeof collectErrorSchema>;
export type AgentSelf = z.infer<typeof agentSelfSchema>;
