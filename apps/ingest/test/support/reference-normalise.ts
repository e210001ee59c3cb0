// The normaliser as it was before the single-pass rewrite (commit ee36db2), kept as the reference
// the current one must match output for output (test/normalise-agent-batch.test.ts).
import type { BeaconSampleRow } from "@rpcpulse/db/fleet";
import type { IngestMetricField } from "@rpcpulse/db/ingest";
import type { AgentBatch, AgentSample } from "@rpcpulse/domain";
import { beaconRowOf, type NormalisedBatch, type ReportedSettings } from "@rpcpulse/services/ingest";

function settingsOf(s: AgentSample): ReportedSettings | null {
  const out: ReportedSettings = {};
  if (s.settings) {
    const shm = s.disks.find((d) => d.path === SHM);
    Object.assign(out, s.settings, {
      listeningPorts: s.tcp?.listeningPorts ?? null,
      shmTotalBytes: shm?.totalBytes ?? null,
    });
  }
  if (s.outbound) {
    out.outbound = {
      time: Date.parse(s.collectedAt),
      top: s.outbound.top.map(({ ip, port, sockets, established, timeWait }) => ({
        ip,
        port,
        sockets,
        established,
        timeWait,
      })),
    };
  }
  return Object.keys(out).length > 0 ? out : null;
}

const SHM = "/dev/shm";
const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v));
const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);
const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

function metricsOf(s: AgentSample): { [F in IngestMetricField]: F extends "syncing" ? boolean | null : number | null } {
  const tcp = s.tcp;
  const st = tcp?.states;
  const chain = s.chain;
  const host = s.host;
  const data = s.disks.find((d) => d.path !== SHM && d.totalBytes !== null);
  const shm = s.disks.find((d) => d.path === SHM);
  const proc = s.fds?.process ?? null;
  return {
    headTime: time(chain?.headTime),
    headBlock: orNull(chain?.headBlock),
    finalizedBlock: orNull(chain?.finalizedBlock),
    headAgeMs: round(chain?.headAgeMs),
    memAvailable: orNull(host?.memAvailableBytes),
    memTotal: orNull(host?.memTotalBytes),
    shmem: orNull(host?.shmemBytes),
    swapUsed: orNull(host?.swapUsedBytes),
    diskFree: data ? (data.availableBytes ?? data.freeBytes) : null,
    diskTotal: data ? data.totalBytes : null,
    shmFree: shm ? (shm.availableBytes ?? shm.freeBytes) : null,
    fdLimit: proc ? proc.softLimit : orNull(s.fds?.systemMax),
    tcpEstablished: orNull(st?.established),
    tcpSynRecv: orNull(st?.synRecv),
    tcpFinWait1: orNull(st?.finWait1),
    tcpFinWait2: orNull(st?.finWait2),
    tcpTimeWait: orNull(st?.timeWait),
    tcpCloseWait: orNull(st?.closeWait),
    tcpLastAck: orNull(st?.lastAck),
    tcpClosing: orNull(st?.closing),
    tcpListen: orNull(st?.listen),
    timeWaitIn: orNull(tcp?.timeWaitInbound),
    timeWaitOut: orNull(tcp?.timeWaitOutbound),
    sockInuse: orNull(s.sockstat?.tcpInuse),
    sockOrphan: orNull(s.sockstat?.tcpOrphan),
    sockTw: orNull(s.sockstat?.tcpTw),
    sockAlloc: orNull(s.sockstat?.tcpAlloc),
    sockMem: orNull(s.sockstat?.tcpMemPages),
    listenOverflows: orNull(s.netstat?.listenOverflows.delta),
    listenDrops: orNull(s.netstat?.listenDrops.delta),
    twOverflows: orNull(s.netstat?.tcpTimeWaitOverflow.delta),
    distinctRemoteIps: orNull(s.remoteIps?.distinctIps),
    conntrackCount: orNull(s.conntrack?.count),
    conntrackMax: orNull(s.conntrack?.max),
    openFds: proc ? proc.openFds : orNull(s.fds?.systemAllocated),
    ephemeralInUse: orNull(s.outbound?.totalSockets),
    ephemeralRange: orNull(s.outbound?.portRange?.size ?? s.settings?.ipLocalPortRange?.size),
    connectMs: orNull(chain?.latency?.connectMs),
    ttfbMs: orNull(chain?.latency?.firstByteMs),
    totalMs: orNull(chain?.latency?.totalMs),
    cpuPct: orNull(host?.cpuPct),
    load1: orNull(host?.load1),
    peers: orNull(chain?.peers),
    syncing: orNull(chain?.syncing),
  };
}

const FIELDS = Object.keys(metricsOf(emptySample())) as IngestMetricField[];

function emptySample(): AgentSample {
  return {
    collectedAt: new Date(0).toISOString(),
    tcp: null,
    sockstat: null,
    netstat: null,
    conntrack: null,
    fds: null,
    host: null,
    disks: [],
    settings: null,
    chain: null,
    remoteIps: null,
    outbound: null,
    self: null,
    errors: [],
  };
}

export function referenceNormalise(batch: AgentBatch): NormalisedBatch {
  const columns: Record<string, unknown[]> = { time: [] };
  for (const field of FIELDS) columns[field] = [];
  const remoteIps: NormalisedBatch["remoteIps"] = {
    sample: [],
    ip: [],
    conns: [],
  };
  let clientVersion: string | null = null;
  let settings: ReportedSettings | null = null;
  const beacon: BeaconSampleRow[] = [];
  batch.samples.forEach((sample, index) => {
    columns.time!.push(Date.parse(sample.collectedAt));
    const metrics = metricsOf(sample) as Record<string, unknown>;
    for (const field of FIELDS) columns[field]!.push(metrics[field]);
    for (const peer of sample.remoteIps?.top ?? []) {
      remoteIps.sample.push(index);
      remoteIps.ip.push(peer.ip);
      remoteIps.conns.push(peer.connections);
    }
    clientVersion = sample.chain?.clientVersion ?? clientVersion;
    const reported = settingsOf(sample);
    if (reported) settings = { ...settings, ...reported };
    const row = beaconRowOf(sample);
    if (row) beacon.push(row);
  });
  return {
    samples: columns as NormalisedBatch["samples"],
    remoteIps,
    clientVersion,
    settings,
    ...(beacon.length > 0 ? { beacon } : {}),
  };
}
