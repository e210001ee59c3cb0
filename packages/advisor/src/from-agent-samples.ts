import {
  NODE_SAMPLE_METRIC_CATALOGUE,
  pickSampleDisks,
  type AgentSample,
  type NodeSampleMetric,
} from "@rpcpulse/domain";
import type {
  AdvisorInput,
  AdvisorNode,
  AdvisorOutboundDestination,
  AdvisorRemoteIp,
  AdvisorSample,
  AdvisorSettings,
  Thresholds,
} from "./types.js";

/**
 * Adapter: agent wire samples (packages/domain) → AdvisorInput.
 *
 * Column semantics match what the ingest path stores in node_samples (services
 * normalise-agent-batch): the node process's open files/limit when the agent watches a process
 * (else the system-wide file handles), counter deltas for ListenOverflows/Drops and
 * TCPTimeWaitOverflow, the first non-/dev/shm disk as the data disk, `outbound.totalSockets` as
 * ephemeralInUse. In addition it keeps what node_samples does not store but the advisor can use:
 * per-destination outbound sockets (`window.outbound`) and the latest `settings` group (with the
 * listening ports and the size of /dev/shm). lagBlocks needs the network's head, which only the
 * server knows; pass `referenceHead` (e.g. another node of the network) to fill it.
 */
export interface AgentSamplesToInputOptions {
  node: AdvisorNode;
  /** Network head at a given time, for lagBlocks = head − node head. */
  referenceHead?: (time: Date) => number | null;
  /** Extra facts the agent does not collect (nginx, client config). */
  settings?: Partial<AdvisorSettings>;
  thresholds?: Partial<Thresholds>;
}

const SHM = "/dev/shm";

/** Catalogue metrics an AdvisorSample leaves out (the advisor reads a head by its block, not its time). */
const NOT_ADVISED = new Set<string>(["headTime"]);

/** The metrics an AdvisorSample carries, in catalogue order (another catalogue's: a test's). */
export function advisorMetricsOf(catalogue: readonly NodeSampleMetric[]): readonly NodeSampleMetric[] {
  return catalogue.filter((m) => !NOT_ADVISED.has(m.field));
}

const ADVISOR_METRICS = advisorMetricsOf(NODE_SAMPLE_METRIC_CATALOGUE);

export function agentSampleToAdvisorSample(
  s: AgentSample,
  referenceHead?: (time: Date) => number | null,
  metrics: readonly NodeSampleMetric[] = ADVISOR_METRICS,
): AdvisorSample {
  const time = new Date(s.collectedAt);
  const { data, shm } = pickSampleDisks(s);
  const sample: Record<string, unknown> = { time };
  for (const m of metrics) sample[m.field] = m.read(s, data, shm);
  const ref = referenceHead ? referenceHead(time) : null;
  const head = sample.headBlock as number | null;
  sample.lagBlocks = ref !== null && head !== null ? Math.max(0, ref - head) : null;
  return sample as unknown as AdvisorSample;
}

/**
 * The node process's whitelisted flags (wire settings.nodeArgs) as clientConfig: each flag under its
 * own spelling ("--maxpeers") and without the dashes ("shared-file-dir"), which is how the same
 * option is named in config.ini / Nethermind config files. null when the agent sent none.
 */
export function clientConfigFromNodeArgs(
  args: readonly { flag: string; value: string }[] | null | undefined,
): Record<string, string> | null {
  if (!args || args.length === 0) return null;
  const out: Record<string, string> = {};
  for (const a of args) {
    out[a.flag] = a.value;
    out[a.flag.replace(/^--/, "")] = a.value;
  }
  return out;
}

/** The newest sample's settings, listening ports and /dev/shm size. */
export function settingsFromAgentSamples(samples: readonly AgentSample[]): AdvisorSettings | null {
  for (let i = samples.length - 1; i >= 0; i--) {
    const s = samples[i]!;
    if (!s.settings) continue;
    const r = s.settings.ipLocalPortRange;
    return {
      tcpTwReuse: s.settings.tcpTwReuse,
      tcpFinTimeout: s.settings.tcpFinTimeout,
      somaxconn: s.settings.somaxconn,
      tcpMaxSynBacklog: s.settings.tcpMaxSynBacklog,
      tcpMaxTwBuckets: s.settings.tcpMaxTwBuckets,
      ipLocalPortRange: r ? { low: r.low, high: r.high } : null,
      tcpTwRecycleLines: s.settings.tcpTwRecycleLines.map((l) => ({ ...l })),
      listeningPorts: s.tcp?.listeningPorts ?? [],
      shmTotalBytes: s.disks.find((d) => d.path === SHM)?.totalBytes ?? null,
      clientConfig: clientConfigFromNodeArgs(s.settings.nodeArgs),
    };
  }
  return null;
}

export function agentSamplesToAdvisorInput(
  samples: readonly AgentSample[],
  options: AgentSamplesToInputOptions,
): AdvisorInput {
  const ordered = [...samples].sort((a, b) => Date.parse(a.collectedAt) - Date.parse(b.collectedAt));
  const remoteIps: AdvisorRemoteIp[] = [];
  const outbound: AdvisorOutboundDestination[] = [];
  for (const s of ordered) {
    const time = new Date(s.collectedAt);
    for (const r of s.remoteIps?.top ?? []) remoteIps.push({ time, ip: r.ip, connections: r.connections });
    for (const d of s.outbound?.top ?? [])
      outbound.push({
        time,
        ip: d.ip,
        port: d.port,
        sockets: d.sockets,
        established: d.established,
        timeWait: d.timeWait,
      });
  }
  const base = settingsFromAgentSamples(ordered);
  const settings = base || options.settings ? { ...(base ?? {}), ...(options.settings ?? {}) } : null;
  const first = ordered[0] ? new Date(ordered[0].collectedAt) : new Date(0);
  const last = ordered.length ? new Date(ordered[ordered.length - 1]!.collectedAt) : first;
  return {
    node: options.node,
    window: {
      from: first,
      to: last,
      samples: ordered.map((s) => agentSampleToAdvisorSample(s, options.referenceHead)),
      remoteIps,
      outbound,
    },
    settings,
    ...(options.thresholds ? { thresholds: options.thresholds } : {}),
  };
}
