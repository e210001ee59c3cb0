import type { ApiFamily } from "@rpcpulse/domain";

/**
 * Contract of the tuning advisor. The app (worker job, services, pages) builds an AdvisorInput from
 * stored telemetry, calls evaluateNode(), and persists the drafts keyed by `fingerprint`.
 * This file only grows (additive changes); nothing here is renamed or removed.
 */

export type Severity = "info" | "low" | "medium" | "high" | "critical";
export const SEVERITIES: readonly Severity[] = ["info", "low", "medium", "high", "critical"];

/** change = do something; explanation = harmless/app-side, nothing to apply; obsolete-setting = remove a stale line. */
export type SuggestionKind = "change" | "explanation" | "obsolete-setting";

export type SnippetKind =
  | "sysctl"
  | "nginx"
  | "iptables"
  | "nftables"
  | "systemd"
  | "hived-config"
  | "nethermind-flags"
  | "geth-flags"
  | "substrate-flags"
  | "sidecar-query"
  | "shell";

/**
 * Series a suggestion is verified on. Names follow node_samples columns (camelCase) or a derived
 * series (see METRIC_DEFINITIONS in metrics.ts for how each is computed from AdvisorSample).
 */
export type TargetMetric =
  | "tw_outbound" // timeWaitOut
  | "tw_inbound" // timeWaitIn
  | "ephemeral_ratio" // ephemeralInUse / ephemeralRange
  | "listen_overflows" // listenOverflows (per-sample delta)
  | "listen_drops"
  | "tw_overflows"
  | "latency_p95_ms" // totalMs (p95 over the window; per-sample value for the comparison)
  | "lag_blocks"
  | "head_age_ms"
  | "finality_lag_blocks" // headBlock − finalizedBlock
  | "close_wait"
  | "orphans" // sockOrphan
  | "fin_wait2"
  | "conntrack_ratio" // conntrackCount / conntrackMax
  | "fd_ratio" // openFds / fdLimit
  | "top_ip_connections" // connections of the busiest remote IP per sample (node_remote_ips)
  | "rpc_connections" // sum of listed remote-IP connections per sample (node_remote_ips)
  | "peers"
  | "mem_available_ratio" // memAvailable / memTotal
  | "shm_free_ratio" // shmFree / shmTotal
  | "clock_skew_ms"; // |host clock offset|: max(|clockSkewMs|, −headAgeMs when the head is "from the future")

/** One row of node_samples as the advisor needs it (camelCase columns; null/undefined = not collected). */
export interface AdvisorSample {
  time: Date;
  headBlock?: number | null;
  finalizedBlock?: number | null;
  headAgeMs?: number | null;
  memAvailable?: number | null;
  memTotal?: number | null;
  shmem?: number | null;
  swapUsed?: number | null;
  diskFree?: number | null;
  diskTotal?: number | null;
  shmFree?: number | null;
  fdLimit?: number | null;
  tcpEstablished?: number | null;
  tcpSynRecv?: number | null;
  tcpFinWait1?: number | null;
  tcpFinWait2?: number | null;
  tcpTimeWait?: number | null;
  tcpCloseWait?: number | null;
  tcpLastAck?: number | null;
  tcpClosing?: number | null;
  tcpListen?: number | null;
  timeWaitIn?: number | null;
  timeWaitOut?: number | null;
  sockInuse?: number | null;
  sockOrphan?: number | null;
  sockTw?: number | null;
  sockAlloc?: number | null;
  sockMem?: number | null;
  /** Per-sample increases of the TcpExt counters (null on an agent's first sample). */
  listenOverflows?: number | null;
  listenDrops?: number | null;
  twOverflows?: number | null;
  distinctRemoteIps?: number | null;
  conntrackCount?: number | null;
  conntrackMax?: number | null;
  openFds?: number | null;
  /** All outbound sockets (any destination) and the ephemeral range size. */
  ephemeralInUse?: number | null;
  ephemeralRange?: number | null;
  lagBlocks?: number | null;
  clockSkewMs?: number | null;
  connectMs?: number | null;
  ttfbMs?: number | null;
  totalMs?: number | null;
  cpuPct?: number | null;
  load1?: number | null;
  peers?: number | null;
  syncing?: boolean | null;
}

/** node_remote_ips: per sample, the top remote IPs on the public ports (non-TIME_WAIT sockets). */
export interface AdvisorRemoteIp {
  time: Date;
  ip: string;
  connections: number;
}

/** Latest per-destination outbound sockets (wire `outbound.top`); optional, not stored in node_samples. */
export interface AdvisorOutboundDestination {
  time: Date;
  ip: string;
  port: number;
  sockets: number;
  established: number;
  timeWait: number;
}

/** Client software, parsed from clientVersion by the advisor when not given (see parseClient). */
export type ClientKind = "hived" | "steemd" | "nethermind" | "geth" | "substrate" | "sidecar" | "unknown";

export interface AdvisorNode {
  id: string;
  family: ApiFamily;
  /** Chain slug ("hive" | "steem" | "ethereum" | "polkadot") when known; disambiguates hived vs steemd. */
  chain?: string | null;
  /** Explicit client; when absent the advisor derives it from clientVersion + chain. */
  client?: ClientKind | null;
  /** As the node reports it (web3_clientVersion, system_version, get_version, /node/version). */
  clientVersion: string | null;
  /** Ports the node's users connect to (nginx 80/443, RPC port). Empty = unknown. */
  publicPorts: number[];
  /** Port of the node's RPC server on this host (e.g. 8545, 8091, 9944, 8080), if known. */
  rpcPort?: number | null;
  /** Target block interval of its network (NETWORKS[].blockIntervalMs). */
  blockIntervalMs?: number | null;
}

export interface StaleSysctlLine {
  file: string;
  line: number;
  text: string;
}

/** Latest kernel settings the agent reported (wire `settings` group) plus optional facts. */
export interface AdvisorSettings {
  tcpTwReuse?: number | null;
  tcpFinTimeout?: number | null;
  somaxconn?: number | null;
  tcpMaxSynBacklog?: number | null;
  tcpMaxTwBuckets?: number | null;
  ipLocalPortRange?: { low: number; high: number } | null;
  /** Lines in /etc/sysctl* that still set net.ipv4.tcp_tw_recycle. */
  tcpTwRecycleLines?: StaleSysctlLine[];
  /** Ports in LISTEN on the host (wire tcp.listeningPorts). */
  listeningPorts?: number[];
  /** Total size of /dev/shm (wire disks[path=/dev/shm].totalBytes). */
  shmTotalBytes?: number | null;
  /**
   * nginx in front of the node, when known (operator-entered or a future agent collector).
   * null/undefined = unknown; the advisor then words nginx snippets as "if nginx terminates HTTP".
   */
  nginx?: {
    present: boolean;
    version?: string | null;
    listenBacklog?: number | null;
    upstreamKeepalive?: number | null;
  } | null;
  /**
   * The node's own configuration as key → value, when known: hived/steemd config.ini keys
   * (e.g. "shared-file-dir", "shared-file-size", "p2p-seed-node"), Nethermind options
   * ("Network.MaxActivePeers", "Db.MaxBytesPerSec"), Geth/Substrate CLI flags ("--maxpeers",
   * "--rpc-max-connections"). Not collected by the agent today; operators may enter it.
   */
  clientConfig?: Record<string, string> | null;
}

export interface Thresholds {
  /** Outbound sockets to one destination / ephemeral range: warn and critical. */
  outboundWarnRatio: number;
  outboundCritRatio: number;
  /** Inbound share of TIME_WAIT above which TIME_WAIT is explained as harmless. */
  inboundTwShare: number;
  /** TIME_WAIT count under which nothing is said at all. */
  timeWaitMin: number;
  finWait2Min: number;
  orphansMin: number;
  /** CLOSE_WAIT: minimum final count and minimum share of increasing steps. */
  closeWaitMin: number;
  closeWaitMonotoneShare: number;
  /** Total listen overflows over the window that trigger the rule. */
  listenOverflowsMin: number;
  conntrackRatio: number;
  fdRatio: number;
  /** Connection flood: one IP above max(floodMinConnections, floodShare × all connections). */
  floodMinConnections: number;
  floodShare: number;
  /** Headroom multiplier on the p99 of legitimate per-IP concurrency. */
  perIpHeadroom: number;
  /** Lag in blocks / peers below which "lagging with few peers" fires. */
  lagBlocks: number;
  fewPeers: number;
  /** Stalled head: head unchanged for max(stalledHeadMinMs, stalledHeadBlocks × block interval). */
  stalledHeadBlocks: number;
  stalledHeadMinMs: number;
  /** Finality stall: finalized block unchanged for max(finalityStallMinMs, finalityStallBlocks × block interval) while the head moves. */
  finalityStallBlocks: number;
  finalityStallMinMs: number;
  /** tmpfs free share below which the hived state rule fires; MemAvailable share likewise. */
  shmFreeRatio: number;
  memAvailableRatio: number;
  /** Sidecar / RPC p95 latency in ms that triggers the Sidecar query rule. */
  sidecarP95Ms: number;
  /** Substrate: connections on the RPC port at or above this share of --rpc-max-connections. */
  rpcConnCapRatio: number;
  /** Minimum samples in the window for a rule to speak. */
  minSamples: number;
  /** Host clock offset (ms) tolerated before the clock-skew rule speaks: negative head age or ingest-measured skew. */
  clockSkewMs: number;
}

export interface Evidence {
  metric: TargetMetric | string;
  label: string;
  observed: number;
  threshold: number;
  comparison: ">" | "<" | ">=" | "<=";
  unit: string;
  window: { from: string; to: string };
  /** Small (≤ 60 points), for a chart. ISO times. */
  series?: { time: string; value: number }[];
}

export interface Snippet {
  kind: SnippetKind;
  title: string;
  /** Where the content goes, e.g. /etc/sysctl.d/90-rpcpulse.conf. */
  filename?: string;
  content: string;
  applyCommand?: string;
  /** True when the snippet must first run in a measuring mode (limit_req_dry_run, iptables LOG). */
  dryRunFirst?: boolean;
}

export interface SuggestionVerification {
  metric: TargetMetric;
  direction: "decrease" | "increase";
  /** Minimum length of the before and the after window for compareBeforeAfter. */
  minimumWindowMinutes: number;
  how: string;
}

export interface SourceRef {
  title: string;
  url: string;
}

export interface SuggestionDraft {
  ruleId: string;
  /** Stable per node + rule + subject (e.g. "R3:10.0.0.5:8545"); the app dedupes on it. */
  fingerprint: string;
  kind: SuggestionKind;
  title: string;
  severity: Severity;
  /** 0-100, for sorting across a fleet (severity and how far past the threshold). */
  impact: number;
  summary: string;
  evidence: Evidence[];
  /** The numbers behind the snippet, one step per line. */
  arithmetic: string[];
  snippets: Snippet[];
  caveats: string[];
  expectedEffect: string;
  verification: SuggestionVerification;
  sources: SourceRef[];
  /**
   * Lets the app detect "applied" when a reported setting reaches the expected value. `setting` is
   * a key of AdvisorSettings; `expected` is an exact value ("[]" for an empty list) or a numeric
   * comparison (">=8192", "<=30"); for ipLocalPortRange a comparison is on the range size.
   */
  appliesWhen?: { setting: keyof AdvisorSettings | string; expected: string };
}

/**
 * The Ethereum consensus client beside the node (beacon_samples: the agent's Beacon API reading of the
 * same sample, https://ethereum.github.io/beacon-APIs/). Read by the stalled-head rule.
 */
export interface AdvisorBeaconSample {
  time: Date;
  /** The Beacon API answered (/eth/v1/beacon/headers/head). */
  ok: boolean;
  headSlot: number | null;
  /** Wall-clock slot − head slot. */
  slotsBehind: number | null;
  /** /eth/v1/node/syncing: sync_distance, is_syncing, is_optimistic, el_offline. */
  syncDistance: number | null;
  syncing: boolean | null;
  optimistic: boolean | null;
  elOffline: boolean | null;
  peers: number | null;
  /** Its head's execution block against this node's head: match | hash-mismatch | el-ahead | el-offline. */
  elCheck: string | null;
}

export interface AdvisorInput {
  node: AdvisorNode;
  window: {
    from: Date;
    to: Date;
    /** Time-ordered. */
    samples: AdvisorSample[];
    remoteIps: AdvisorRemoteIp[];
    outbound?: AdvisorOutboundDestination[];
    /** Ethereum nodes with a consensus client (agent --beacon-url): its readings, time-ordered. */
    beacon?: AdvisorBeaconSample[];
    /** Its /eth/v1/node/version (e.g. "Lighthouse/v7.1.0-8d1b2f8/x86_64-linux"). */
    beaconVersion?: string | null;
  };
  settings: AdvisorSettings | null;
  thresholds?: Partial<Thresholds>;
  /**
   * The app's before/after verification window when it overrides every rule's own minimum
   * (ADVISOR_VERIFY_WINDOW_MINUTES); drafts then state and use this window. null/undefined = each
   * rule's minimumWindowMinutes.
   */
  verifyWindowMinutes?: number | null;
}

export type Verdict = "helped" | "no-effect" | "hurt" | "insufficient-data";

export interface VerificationResult {
  verdict: Verdict;
  beforeMedian: number | null;
  afterMedian: number | null;
  /** afterMedian − beforeMedian (Hodges–Lehmann shift estimate when both sides have data). */
  change: number | null;
  /** 95 % confidence interval of the shift (after − before). */
  ciLow: number | null;
  ciHigh: number | null;
  /** 1 − two-sided p-value of the Mann–Whitney U test (0 when insufficient data). */
  confidence: number;
  n: { before: number; after: number };
}

export interface RuleDescriptor {
  id: string;
  title: string;
  /** Families the rule runs for; "any" = host-level. */
  families: readonly (ApiFamily | "any")[];
  /** Clients it is limited to (empty = all), and a version note. */
  clients: readonly ClientKind[];
  gate: string;
  watches: readonly string[];
  kind: SuggestionKind;
  snippetKinds: readonly SnippetKind[];
  verificationMetric: TargetMetric;
  sources: readonly SourceRef[];
}
