import type { BeaconSampleRow, IngestMetricField, IngestRemoteIpColumns } from "@rpcpulse/db";
import { beaconRowOf } from "./normalise-beacon.js";
import type { AgentBatch, AgentSample } from "@rpcpulse/domain";

/**
 * Wire batch (what the agent sends) → the columns the worker writes (node_samples and
 * node_remote_ips). Pure; runs in the ingest API so the queued job is compact and the worker
 * never parses the wire format again.
 */
export type NormalisedSampleColumns = { time: number[] } & {
  [F in IngestMetricField]: (F extends "syncing" ? boolean | null : number | null)[];
};

export interface NormalisedBatch {
  samples: NormalisedSampleColumns;
  remoteIps: { sample: number[]; ip: string[]; conns: number[] };
  /** The node software's version as the newest sample saw it. */
  clientVersion: string | null;
  /**
   * What the tuning advisor reads besides the samples, newest report of each part: the kernel
   * settings (wire `settings` group, with the listening ports and the /dev/shm size) and the busiest
   * outbound destinations. null = neither reported.
   */
  settings: ReportedSettings | null;
  /** Consensus-client readings (wire `beacon` group), one per sample that carried it; absent when none did. */
  beacon?: BeaconSampleRow[];
}

export type ReportedSettings = Partial<NonNullable<AgentSample["settings"]>> & {
  listeningPorts?: number[] | null;
  shmTotalBytes?: number | null;
  /** Outbound sockets per destination at `time` (epoch ms). */
  outbound?: {
    time: number;
    top: { ip: string; port: number; sockets: number; established: number; timeWait: number }[];
  };
};

const SHM = "/dev/shm";
const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v));
const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);
const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

type Disk = AgentSample["disks"][number];

function emptyColumns(): NormalisedSampleColumns {
  return {
    time: [],
    headTime: [],
    headBlock: [],
    finalizedBlock: [],
    headAgeMs: [],
    memAvailable: [],
    memTotal: [],
    shmem: [],
    swapUsed: [],
    diskFree: [],
    diskTotal: [],
    shmFree: [],
    fdLimit: [],
    tcpEstablished: [],
    tcpSynRecv: [],
    tcpFinWait1: [],
    tcpFinWait2: [],
    tcpTimeWait: [],
    tcpCloseWait: [],
    tcpLastAck: [],
    tcpClosing: [],
    tcpListen: [],
    timeWaitIn: [],
    timeWaitOut: [],
    sockInuse: [],
    sockOrphan: [],
    sockTw: [],
    sockAlloc: [],
    sockMem: [],
    listenOverflows: [],
    listenDrops: [],
    twOverflows: [],
    distinctRemoteIps: [],
    conntrackCount: [],
    conntrackMax: [],
    openFds: [],
    ephemeralInUse: [],
    ephemeralRange: [],
    connectMs: [],
    ttfbMs: [],
    totalMs: [],
    cpuPct: [],
    load1: [],
    peers: [],
    syncing: [],
  };
}

/** One sample's metrics appended to the columns (one entry per column). */
function pushMetrics(c: NormalisedSampleColumns, s: AgentSample, data: Disk | undefined, shm: Disk | undefined): void {
  const tcp = s.tcp;
  const st = tcp?.states;
  const chain = s.chain;
  const host = s.host;
  const sockstat = s.sockstat;
  const netstat = s.netstat;
  const proc = s.fds?.process ?? null;
  const latency = chain?.latency;
  c.headTime.push(time(chain?.headTime));
  c.headBlock.push(orNull(chain?.headBlock));
  c.finalizedBlock.push(orNull(chain?.finalizedBlock));
  c.headAgeMs.push(round(chain?.headAgeMs));
  c.memAvailable.push(orNull(host?.memAvailableBytes));
  c.memTotal.push(orNull(host?.memTotalBytes));
  c.shmem.push(orNull(host?.shmemBytes));
  c.swapUsed.push(orNull(host?.swapUsedBytes));
  c.diskFree.push(data ? (data.availableBytes ?? data.freeBytes) : null);
  c.diskTotal.push(data ? data.totalBytes : null);
  c.shmFree.push(shm ? (shm.availableBytes ?? shm.freeBytes) : null);
  c.fdLimit.push(proc ? proc.softLimit : orNull(s.fds?.systemMax));
  c.tcpEstablished.push(orNull(st?.established));
  c.tcpSynRecv.push(orNull(st?.synRecv));
  c.tcpFinWait1.push(orNull(st?.finWait1));
  c.tcpFinWait2.push(orNull(st?.finWait2));
  c.tcpTimeWait.push(orNull(st?.timeWait));
  c.tcpCloseWait.push(orNull(st?.closeWait));
  c.tcpLastAck.push(orNull(st?.lastAck));
  c.tcpClosing.push(orNull(st?.closing));
  c.tcpListen.push(orNull(st?.listen));
  c.timeWaitIn.push(orNull(tcp?.timeWaitInbound));
  c.timeWaitOut.push(orNull(tcp?.timeWaitOutbound));
  c.sockInuse.push(orNull(sockstat?.tcpInuse));
  c.sockOrphan.push(orNull(sockstat?.tcpOrphan));
  c.sockTw.push(orNull(sockstat?.tcpTw));
  c.sockAlloc.push(orNull(sockstat?.tcpAlloc));
  c.sockMem.push(orNull(sockstat?.tcpMemPages));
  c.listenOverflows.push(orNull(netstat?.listenOverflows.delta));
  c.listenDrops.push(orNull(netstat?.listenDrops.delta));
  c.twOverflows.push(orNull(netstat?.tcpTimeWaitOverflow.delta));
  c.distinctRemoteIps.push(orNull(s.remoteIps?.distinctIps));
  c.conntrackCount.push(orNull(s.conntrack?.count));
  c.conntrackMax.push(orNull(s.conntrack?.max));
  c.openFds.push(proc ? proc.openFds : orNull(s.fds?.systemAllocated));
  c.ephemeralInUse.push(orNull(s.outbound?.totalSockets));
  c.ephemeralRange.push(orNull(s.outbound?.portRange?.size ?? s.settings?.ipLocalPortRange?.size));
  c.connectMs.push(orNull(latency?.connectMs));
  c.ttfbMs.push(orNull(latency?.firstByteMs));
  c.totalMs.push(orNull(latency?.totalMs));
  c.cpuPct.push(orNull(host?.cpuPct));
  c.load1.push(orNull(host?.load1));
  c.peers.push(orNull(chain?.peers));
  c.syncing.push(orNull(chain?.syncing));
}

/**
 * One pass over the samples: the columns, the remote-IP rows, and what later samples override
 * (client version, settings; the outbound list of the newest sample that has one is built once).
 */
export function normaliseAgentBatch(batch: AgentBatch): NormalisedBatch {
  const columns = emptyColumns();
  const remoteIps: IngestRemoteIpColumns & { sample: number[]; ip: string[]; conns: number[] } = {
    sample: [],
    ip: [],
    conns: [],
  };
  let clientVersion: string | null = null;
  let settings: ReportedSettings | null = null;
  let outboundOf: AgentSample | null = null;
  const beacon: BeaconSampleRow[] = [];
  const samples = batch.samples;
  for (let index = 0; index < samples.length; index++) {
    const sample = samples[index] as AgentSample;
    let data: Disk | undefined;
    let shm: Disk | undefined;
    for (const d of sample.disks) {
      if (d.path === SHM) shm ??= d;
      else if (d.totalBytes !== null) data ??= d;
    }
    columns.time.push(Date.parse(sample.collectedAt));
    pushMetrics(columns, sample, data, shm);
    const top = sample.remoteIps?.top;
    if (top) {
      for (const peer of top) {
        remoteIps.sample.push(index);
        remoteIps.ip.push(peer.ip);
        remoteIps.conns.push(peer.connections);
      }
    }
    clientVersion = sample.chain?.clientVersion ?? clientVersion;
    // Later samples override earlier ones key by key (a key only an earlier sample sent stays).
    if (sample.settings) {
      settings ??= {};
      Object.assign(settings, sample.settings, {
        listeningPorts: sample.tcp?.listeningPorts ?? null,
        shmTotalBytes: shm?.totalBytes ?? null,
      });
    }
    if (sample.outbound) {
      settings ??= {};
      // Keeps its place among the keys; the value is filled in once, from the newest such sample.
      settings.outbound = undefined;
      outboundOf = sample;
    }
    if (sample.beacon) {
      const row = beaconRowOf(sample);
      if (row) beacon.push(row);
    }
  }
  if (settings && outboundOf?.outbound) {
    settings.outbound = {
      time: Date.parse(outboundOf.collectedAt),
      top: outboundOf.outbound.top.map(({ ip, port, sockets, established, timeWait }) => ({
        ip,
        port,
        sockets,
        established,
        timeWait,
      })),
    };
  }
  return {
    samples: columns,
    remoteIps,
    clientVersion,
    settings,
    ...(beacon.length > 0 ? { beacon } : {}),
  };
}
