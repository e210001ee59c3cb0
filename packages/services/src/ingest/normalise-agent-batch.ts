import type { BeaconSampleRow } from "@rpcpulse/db/fleet";
import type { IngestMetricField, IngestRemoteIpColumns } from "@rpcpulse/db/ingest";
import { beaconRowOf } from "./normalise-beacon.js";
import {
  NODE_SAMPLE_METRIC_CATALOGUE,
  pickSampleDisks,
  type AgentBatch,
  type AgentSample,
  type AgentSampleDisk,
  type NodeSampleMetric,
} from "@rpcpulse/domain";

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

type Disk = AgentSampleDisk;

/**
 * The catalogue's metrics as the normaliser reads them: the job's column names and each metric's
 * wire reader, as parallel arrays (derived once; another catalogue's mapping is a test's).
 */
export interface SampleMetricMapping {
  readonly keys: readonly string[];
  readonly fields: readonly string[];
  readonly readers: readonly NodeSampleMetric["read"][];
}

export function sampleMetricMappingOf(catalogue: readonly NodeSampleMetric[]): SampleMetricMapping {
  const fields = catalogue.map((m) => m.field);
  return { keys: ["time", ...fields], fields, readers: catalogue.map((m) => m.read) };
}

const METRIC_MAPPING = sampleMetricMappingOf(NODE_SAMPLE_METRIC_CATALOGUE);

/** One empty column per key, in the catalogue's order (fromEntries keeps the object's fast properties). */
function emptyColumns(mapping: SampleMetricMapping): NormalisedSampleColumns {
  return Object.fromEntries(mapping.keys.map((key) => [key, []])) as unknown as NormalisedSampleColumns;
}

/** One sample's metrics appended to the columns (one entry per column, `columns` in the mapping's order). */
function pushMetrics(
  columns: (number | boolean | null)[][],
  readers: SampleMetricMapping["readers"],
  s: AgentSample,
  data: Disk | undefined,
  shm: Disk | undefined,
): void {
  for (let k = 0; k < readers.length; k++) columns[k]!.push(readers[k]!(s, data, shm));
}

/**
 * One pass over the samples: the columns, the remote-IP rows, and what later samples override
 * (client version, settings; the outbound list of the newest sample that has one is built once).
 */
export function normaliseAgentBatch(batch: AgentBatch, mapping = METRIC_MAPPING): NormalisedBatch {
  const columns = emptyColumns(mapping);
  const metricColumns = mapping.fields.map((f) => columns[f as IngestMetricField] as (number | boolean | null)[]);
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
    const { data, shm } = pickSampleDisks(sample);
    columns.time.push(Date.parse(sample.collectedAt));
    pushMetrics(metricColumns, mapping.readers, sample, data, shm);
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
