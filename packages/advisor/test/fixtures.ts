import type {
  AdvisorInput,
  AdvisorNode,
  AdvisorOutboundDestination,
  AdvisorRemoteIp,
  AdvisorSample,
  AdvisorSettings,
} from "../src/index.js";

/**
 * Inputs for the rule tests and the snippet tool checks. `healthy()` is a quiet node; each
 * `faulty.*` builder adds one fault with numbers chosen by the caller, so the tests cover
 * several numbers per rule (the snippets are generated, not fixed strings).
 */
export const GIB = 1024 ** 3;
export const T0 = Date.parse("2026-11-20T10:00:00Z");
export const STEP_S = 10;

export function at(i: number): Date {
  return new Date(T0 + i * STEP_S * 1000);
}

export function quietSample(i: number): AdvisorSample {
  return {
    time: at(i),
    headBlock: 1000 + i,
    headAgeMs: 1500,
    memAvailable: 8 * GIB,
    memTotal: 16 * GIB,
    shmem: 100 * 1024 ** 2,
    swapUsed: 0,
    shmFree: 7.9 * GIB,
    fdLimit: 65536,
    openFds: 120,
    tcpEstablished: 40,
    tcpSynRecv: 0,
    tcpFinWait1: 0,
    tcpFinWait2: 2,
    tcpTimeWait: 30,
    tcpCloseWait: 1,
    timeWaitIn: 20,
    timeWaitOut: 10,
    sockOrphan: 0,
    sockTw: 30,
    listenOverflows: 0,
    listenDrops: 0,
    twOverflows: 0,
    conntrackCount: 1200,
    conntrackMax: 262144,
    ephemeralInUse: 30,
    ephemeralRange: 28232,
    lagBlocks: 0,
    totalMs: 25,
    peers: 25,
    syncing: false,
  };
}

export const DEFAULT_SETTINGS: AdvisorSettings = {
  tcpTwReuse: 2,
  tcpFinTimeout: 60,
  somaxconn: 4096,
  tcpMaxSynBacklog: 1024,
  tcpMaxTwBuckets: 262144,
  ipLocalPortRange: { low: 32768, high: 60999 },
  tcpTwRecycleLines: [],
  listeningPorts: [80, 443, 8545, 30303],
  shmTotalBytes: 8 * GIB,
};

export interface Build {
  node?: Partial<AdvisorNode>;
  n?: number;
  sample?: (i: number, s: AdvisorSample) => Partial<AdvisorSample>;
  remoteIps?: (i: number) => { ip: string; connections: number }[];
  outbound?: (i: number) => Omit<AdvisorOutboundDestination, "time">[];
  settings?: Partial<AdvisorSettings> | null;
}

export function build(b: Build = {}): AdvisorInput {
  const n = b.n ?? 30;
  const samples: AdvisorSample[] = [];
  const remoteIps: AdvisorRemoteIp[] = [];
  const outbound: AdvisorOutboundDestination[] = [];
  for (let i = 0; i < n; i++) {
    const s = quietSample(i);
    samples.push({ ...s, ...(b.sample ? b.sample(i, s) : {}) });
    const ips = b.remoteIps ? b.remoteIps(i) : defaultIps(i);
    for (const r of ips) remoteIps.push({ time: at(i), ...r });
    for (const d of b.outbound ? b.outbound(i) : []) outbound.push({ time: at(i), ...d });
  }
  return {
    node: {
      id: "node-1",
      family: "ethereum",
      clientVersion: "Geth/v1.16.7-stable-b9f3a3d9/linux-amd64/go1.24.10",
      publicPorts: [80, 443],
      rpcPort: 8545,
      blockIntervalMs: 12000,
      ...b.node,
    },
    window: { from: at(0), to: at(n - 1), samples, remoteIps, outbound },
    settings: b.settings === null ? null : { ...DEFAULT_SETTINGS, ...(b.settings ?? {}) },
  };
}

/** 40 ordinary clients with 1-4 connections each. */
export function defaultIps(i: number): { ip: string; connections: number }[] {
  return Array.from({ length: 40 }, (_, k) => ({ ip: `198.51.100.${k + 1}`, connections: 1 + ((k + i) % 4) }));
}

export const faulty = {
  outbound(ip: string, port: number, peak: number, settings: Partial<AdvisorSettings> = {}): AdvisorInput {
    return build({
      outbound: (i) => [
        {
          ip,
          port,
          sockets: Math.round((peak * (i + 1)) / 30),
          established: 40,
          timeWait: Math.max(0, Math.round((peak * (i + 1)) / 30) - 40),
        },
      ],
      settings,
    });
  },
  churn(port: number, tw: number): AdvisorInput {
    return build({
      node: { rpcPort: port },
      outbound: () => [{ ip: "127.0.0.1", port, sockets: tw + 5, established: 5, timeWait: tw }],
    });
  },
  inboundTw(tw: number): AdvisorInput {
    return build({ sample: () => ({ timeWaitIn: tw, timeWaitOut: Math.round(tw * 0.02), tcpTimeWait: tw }) });
  },
  finWait2(fw: number, finTimeout = 60): AdvisorInput {
    return build({
      sample: (i) => ({ tcpFinWait2: fw, sockOrphan: 50 + i * 10 }),
      settings: { tcpFinTimeout: finTimeout },
    });
  },
  closeWait(perStep: number): AdvisorInput {
    return build({ sample: (i) => ({ tcpCloseWait: 5 + i * perStep }) });
  },
  listen(peakPerSample: number, settings: Partial<AdvisorSettings> = {}): AdvisorInput {
    return build({ sample: (i) => ({ listenOverflows: i % 5 === 0 ? peakPerSample : 0 }), settings });
  },
  conntrack(count: number, max: number): AdvisorInput {
    return build({ sample: () => ({ conntrackCount: count, conntrackMax: max }) });
  },
  fds(open: number, limit: number, client?: AdvisorNode["client"]): AdvisorInput {
    return build({ node: client ? { client } : {}, sample: () => ({ openFds: open, fdLimit: limit }) });
  },
  flood(ip: string, conns: number, publicPorts: number[]): AdvisorInput {
    return build({ node: { publicPorts }, remoteIps: (i) => [...defaultIps(i), { ip, connections: conns }] });
  },
  lagging(node: Partial<AdvisorNode>, lag: number, peers: number, config?: Record<string, string>): AdvisorInput {
    return build({ node, sample: () => ({ lagBlocks: lag, peers }), settings: config ? { clientConfig: config } : {} });
  },
  /**
   * The head advances one block per sample, then stays on one block for the last `stalledSamples`
   * samples (10 s apart) while its age grows with the clock.
   */
  stalled(
    node: Partial<AdvisorNode>,
    stalledSamples: number,
    extra: Partial<AdvisorSample> = {},
    n = 30,
  ): AdvisorInput {
    const stallAt = n - stalledSamples;
    return build({
      node,
      n,
      sample: (i) => ({
        headBlock: 1000 + Math.min(i, stallAt),
        headAgeMs: 1500 + Math.max(0, i - stallAt) * STEP_S * 1000,
        ...extra,
      }),
    });
  },
  hivedState(opts: {
    sharedFileSize: string;
    dir: string;
    shmTotal: number;
    memTotal: number;
    chain?: string;
  }): AdvisorInput {
    return build({
      node: {
        family: "hive",
        chain: opts.chain ?? "hive",
        clientVersion: "1.27.11",
        rpcPort: 8091,
        blockIntervalMs: 3000,
      },
      sample: () => ({
        memTotal: opts.memTotal,
        memAvailable: opts.memTotal * 0.05,
        shmem: opts.memTotal * 0.6,
        shmFree: opts.shmTotal * 0.02,
      }),
      settings: {
        shmTotalBytes: opts.shmTotal,
        clientConfig: { "shared-file-size": opts.sharedFileSize, "shared-file-dir": opts.dir },
      },
    });
  },
  nethermind(version: string, memGib: number, config: Record<string, string> = {}): AdvisorInput {
    return build({
      node: { clientVersion: `Nethermind/v${version}+abc123/linux-x64/dotnet9.0.0` },
      sample: () => ({ memTotal: memGib * GIB, memAvailable: memGib * GIB * 0.5 }),
      settings: { clientConfig: config },
    });
  },
  substrateRpc(peak: number, cap?: number): AdvisorInput {
    return build({
      node: {
        family: "substrate",
        clientVersion: "1.16.0-87971b3e927",
        publicPorts: [9944],
        rpcPort: 9944,
        blockIntervalMs: 6000,
      },
      remoteIps: () =>
        Array.from({ length: 10 }, (_, k) => ({ ip: `203.0.113.${k + 1}`, connections: Math.round(peak / 10) })),
      settings: cap ? { clientConfig: { "--rpc-max-connections": String(cap) } } : {},
    });
  },
  sidecar(latencyMs: number): AdvisorInput {
    return build({
      node: { family: "sidecar", clientVersion: "1.16.0", publicPorts: [8080], rpcPort: 8080, blockIntervalMs: 6000 },
      sample: (i) => ({ totalMs: latencyMs * (0.8 + (i % 5) * 0.1) }),
    });
  },
};
