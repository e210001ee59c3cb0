import type { SqlClient } from "../sql/sql-client.js";
import {
  BinaryCopyEncoder,
  copyFromStdin,
  putInt2,
  putInt4,
  putInt8,
  putTimestampMs,
  uuidBytes,
  type CopyCapableClient,
} from "../sql/copy-binary.js";
import { upsertReportedSettings } from "../advisor/advisor-nodes.js";
import { writeBeaconSamples, type BeaconSampleRow } from "../fleet/beacon-samples.js";
import { NODE_SAMPLE_METRICS } from "../fleet/node-samples.js";

/**
 * The ingest worker's write stage: agent batches (already normalised into columns) written to
 * node_samples and node_remote_ips with binary COPY, plus node_latest and the nodes' lastSeenAt /
 * agentVersion, all in one transaction per flush.
 *
 * Idempotency: COPY is tried first (the common case, no conflicts). When a row already exists
 * (a replayed batch whose first attempt committed) the transaction is rolled back and redone
 * through session temp tables with INSERT ... ON CONFLICT DO NOTHING, so a replay never
 * duplicates a row and never fails.
 */

/** Per-sample metric columns of an ingest batch: the node_samples metric map, one copy for both write paths. */
export const INGEST_SAMPLE_METRICS = NODE_SAMPLE_METRICS;

export type IngestMetricField = (typeof INGEST_SAMPLE_METRICS)[number][0];
type KindOf<F extends IngestMetricField> = Extract<
  (typeof INGEST_SAMPLE_METRICS)[number],
  readonly [F, string, string]
>[2];

/** One array per metric, one entry per sample (null = not reported); times are epoch ms. */
export type IngestSampleColumns = { time: readonly number[] } & {
  readonly [F in IngestMetricField]: KindOf<F> extends "bool"
    ? readonly (boolean | null)[]
    : readonly (number | null)[];
};

/** Remote-IP rows of a batch: `sample` indexes into the batch's samples. */
export interface IngestRemoteIpColumns {
  readonly sample: readonly number[];
  readonly ip: readonly string[];
  readonly conns: readonly number[];
}

/** One agent batch as the flush writes it. */
export interface IngestFlushBatch {
  nodeId: string;
  batchSeq: number;
  /** Server receive time, epoch ms (becomes the node's lastSeenAt). */
  receivedAtMs: number;
  clockSkewMs: number;
  agentVersion: string;
  clientVersion: string | null;
  samples: IngestSampleColumns;
  remoteIps: IngestRemoteIpColumns;
  /** Blocks behind the network head per sample (computed by the caller); null = unknown. */
  lagBlocks: readonly (number | null)[];
  /** Kernel settings the batch reported last (JSON for node_reported_settings); null/absent = none. */
  settings?: unknown;
  /** Ethereum consensus-client readings (beacon_samples, node_beacon_latest); absent = none. */
  beacon?: readonly BeaconSampleRow[] | null;
}

export interface IngestFlushResult {
  samplesInserted: number;
  remoteIpsInserted: number;
  /** copy: the fast path; upsert: a conflict sent the flush through ON CONFLICT DO NOTHING. */
  path: "copy" | "upsert";
}

/** A pool handing out single sessions (pg.Pool). */
export interface SqlSessionPool {
  connect(): Promise<SqlClient & CopyCapableClient & { release(error?: Error | boolean): void }>;
}

/** The columns a sample row is written with and how its metrics are encoded, derived once from a metric map. */
export interface IngestSamplePlan {
  /** COPY column list: the row's identity and per-batch columns, then the metrics in map order. */
  readonly columns: readonly string[];
  /** `columns` joined, as the COPY and INSERT statements name them. */
  readonly columnList: string;
  readonly metricFields: readonly string[];
  /** Per metric the encoder's small code for its kind (KIND_CODE). */
  readonly metricKinds: readonly number[];
  /** Most bytes a sample row takes: field count, then per field a length and at most 8 bytes (uuid: 16). */
  readonly maxRowBytes: number;
}

const KIND_CODE = { time: 0, int8: 1, int4: 2, int2: 3, float4: 4, bool: 5 } as const;

export function ingestSamplePlanOf(
  metrics: readonly (readonly [string, string, keyof typeof KIND_CODE])[],
): IngestSamplePlan {
  const columns = [
    "time",
    "node_id",
    "batch_seq",
    "clock_skew_ms",
    "lag_blocks",
    ...metrics.map(([, column]) => column),
  ];
  return {
    columns,
    columnList: columns.join(", "),
    metricFields: metrics.map(([field]) => field),
    metricKinds: metrics.map(([, , kind]) => KIND_CODE[kind]),
    maxRowBytes: 2 + 12 + 20 + 12 + 8 + 8 + metrics.length * 12,
  };
}

/** The plan of node_samples as the catalogue defines it (every flush uses this one). */
export const INGEST_SAMPLE_PLAN = ingestSamplePlanOf(INGEST_SAMPLE_METRICS);
const REMOTE_IP_COLUMN_LIST = "time, node_id, ip, conns";

const INT4_MAX = 2_147_483_647;
const INT2_MAX = 32_767;
const clampInt = (v: number, max: number) => Math.max(-max - 1, Math.min(max, Math.round(v)));

/** Most bytes a remote-IP row takes (an IPv6 address). */
const MAX_REMOTE_IP_ROW_BYTES = 2 + 12 + 20 + 24 + 8;

/** `plan`: another metric map's (a test's); every flush uses INGEST_SAMPLE_PLAN. */
export function encodeSamples(
  batches: readonly IngestFlushBatch[],
  plan: IngestSamplePlan = INGEST_SAMPLE_PLAN,
): { payload: Buffer; rows: number } {
  // Metric fields and their kinds as parallel arrays and small codes (the inner loop reads them per value).
  const { metricFields: METRIC_FIELDS, metricKinds: METRIC_KINDS, maxRowBytes: MAX_SAMPLE_ROW_BYTES } = plan;
  // Room for the largest rows up front: the buffer never grows (allocUnsafe, so the unused tail costs nothing).
  const enc = new BinaryCopyEncoder(
    batches.reduce((n, b) => n + b.samples.time.length, 0) * MAX_SAMPLE_ROW_BYTES + 1024,
  );
  const fields = plan.columns.length;
  const metricCount = METRIC_FIELDS.length;
  const columns: (readonly (number | boolean | null)[])[] = new Array(metricCount);
  for (const batch of batches) {
    const node = uuidBytes(batch.nodeId);
    const skew = clampInt(batch.clockSkewMs, INT4_MAX);
    const s = batch.samples;
    for (let k = 0; k < metricCount; k++) columns[k] = s[METRIC_FIELDS[k] as IngestMetricField];
    const times = s.time;
    const lags = batch.lagBlocks;
    for (let i = 0; i < times.length; i++) {
      // One room check per row, then every field written in place.
      enc.reserve(MAX_SAMPLE_ROW_BYTES);
      const view = enc.dataView;
      const buf = enc.bytes;
      let at = enc.offset;
      view.setInt16(at, fields);
      putTimestampMs(view, at + 2, times[i] as number);
      view.setInt32(at + 14, 16);
      node.copy(buf, at + 18);
      putInt8(view, at + 34, batch.batchSeq);
      putInt4(view, at + 46, skew);
      at += 54;
      const lag = lags[i];
      if (lag === null || lag === undefined) {
        view.setInt32(at, -1);
        at += 4;
      } else {
        putInt4(view, at, clampInt(lag, INT4_MAX));
        at += 8;
      }
      for (let k = 0; k < metricCount; k++) {
        const value = columns[k]![i];
        if (value === null || value === undefined) {
          view.setInt32(at, -1);
          at += 4;
          continue;
        }
        switch (METRIC_KINDS[k]) {
          case 0:
            putTimestampMs(view, at, value as number);
            at += 12;
            break;
          case 1:
            putInt8(view, at, Math.round(value as number));
            at += 12;
            break;
          case 2:
            putInt4(view, at, clampInt(value as number, INT4_MAX));
            at += 8;
            break;
          case 3:
            putInt2(view, at, clampInt(value as number, INT2_MAX));
            at += 6;
            break;
          case 4:
            view.setInt32(at, 4);
            view.setFloat32(at + 4, value as number);
            at += 8;
            break;
          case 5:
            view.setInt32(at, 1);
            view.setUint8(at + 4, value ? 1 : 0);
            at += 5;
            break;
        }
      }
      enc.offset = at;
      enc.rows++;
    }
  }
  return { rows: enc.rows, payload: enc.finish() };
}

export function encodeRemoteIps(batches: readonly IngestFlushBatch[]): { payload: Buffer; rows: number } {
  const enc = new BinaryCopyEncoder(
    batches.reduce((n, b) => n + b.remoteIps.ip.length, 0) * MAX_REMOTE_IP_ROW_BYTES + 1024,
  );
  for (const batch of batches) {
    const node = uuidBytes(batch.nodeId);
    const r = batch.remoteIps;
    const times = batch.samples.time;
    for (let i = 0; i < r.ip.length; i++) {
      const time = times[r.sample[i] as number];
      if (time === undefined) throw new RangeError("remote IP row points at no sample");
      enc.startRow(4);
      enc.timestampMs(time);
      enc.uuid(node);
      enc.inetText(r.ip[i] as string);
      enc.int4(clampInt(r.conns[i] as number, INT4_MAX));
    }
  }
  return { rows: enc.rows, payload: enc.finish() };
}

/** Newest sample per node and newest receipt per node, sorted by node id (stable lock order). */
function summariseNodes(batches: readonly IngestFlushBatch[]) {
  const latest = new Map<string, number>();
  const seen = new Map<string, { at: number; agentVersion: string; clientVersion: string | null }>();
  for (const b of batches) {
    for (const t of b.samples.time) if (t > (latest.get(b.nodeId) ?? -Infinity)) latest.set(b.nodeId, t);
    const prev = seen.get(b.nodeId);
    if (!prev || b.receivedAtMs >= prev.at) {
      seen.set(b.nodeId, {
        at: b.receivedAtMs,
        agentVersion: b.agentVersion,
        clientVersion: b.clientVersion ?? prev?.clientVersion ?? null,
      });
    }
  }
  const ids = [...seen.keys()].sort();
  return {
    ids,
    latestTimes: ids.map((id) => new Date(latest.get(id) as number)),
    seenAt: ids.map((id) => new Date(seen.get(id)!.at)),
    agentVersions: ids.map((id) => seen.get(id)!.agentVersion),
    clientVersions: ids.map((id) => seen.get(id)!.clientVersion),
    settings: newestSettings(batches),
  };
}

/** Per node, the settings of its newest batch that carried any (for node_reported_settings). */
function newestSettings(batches: readonly IngestFlushBatch[]) {
  const newest = new Map<string, { nodeId: string; settings: unknown; reportedAt: Date }>();
  for (const b of batches) {
    if (b.settings === undefined || b.settings === null) continue;
    const prev = newest.get(b.nodeId);
    if (!prev || b.receivedAtMs >= prev.reportedAt.getTime()) {
      newest.set(b.nodeId, { nodeId: b.nodeId, settings: b.settings, reportedAt: new Date(b.receivedAtMs) });
    }
  }
  return [...newest.values()].sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
}

const UPSERT_LATEST_SQL = `
INSERT INTO node_latest (node_id, time)
SELECT * FROM unnest($1::uuid[], $2::timestamptz[])
ON CONFLICT (node_id) DO UPDATE SET time = EXCLUDED.time WHERE node_latest.time < EXCLUDED.time`;

const UPDATE_NODES_SQL = `
UPDATE nodes AS n
SET last_seen_at = v.seen_at, agent_version = v.agent_version, client_version = coalesce(v.client_version, n.client_version)
FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[]) AS v(id, seen_at, agent_version, client_version)
WHERE n.id = v.id AND (n.last_seen_at IS NULL OR n.last_seen_at <= v.seen_at)`;

const STAGE_SQL = `
CREATE TEMP TABLE IF NOT EXISTS ingest_stage_samples (LIKE node_samples) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS ingest_stage_remote_ips (LIKE node_remote_ips) ON COMMIT DELETE ROWS`;

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown }).code === "23505";
}

/**
 * Write a flush (any number of batches, any nodes) in one transaction. Throws on database errors
 * (the caller retries); a conflict with rows already stored is not an error.
 */
export async function writeIngestFlush(
  pool: SqlSessionPool,
  batches: readonly IngestFlushBatch[],
  plan: IngestSamplePlan = INGEST_SAMPLE_PLAN,
): Promise<IngestFlushResult> {
  if (batches.length === 0) return { samplesInserted: 0, remoteIpsInserted: 0, path: "copy" };
  const SAMPLE_COLUMN_LIST = plan.columnList;
  const samples = encodeSamples(batches, plan);
  const remoteIps = encodeRemoteIps(batches);
  const nodes = summariseNodes(batches);
  const session = await pool.connect();
  let broken: Error | undefined;
  try {
    const finishNodes = async () => {
      await session.query(UPSERT_LATEST_SQL, [nodes.ids, nodes.latestTimes]);
      await session.query(UPDATE_NODES_SQL, [nodes.ids, nodes.seenAt, nodes.agentVersions, nodes.clientVersions]);
      await upsertReportedSettings(session, nodes.settings);
      await writeBeaconSamples(session, batches);
    };
    try {
      await session.query("BEGIN");
      await copyFromStdin(
        session,
        `COPY node_samples (${SAMPLE_COLUMN_LIST}) FROM STDIN (FORMAT binary)`,
        samples.payload,
      );
      if (remoteIps.rows > 0) {
        await copyFromStdin(
          session,
          `COPY node_remote_ips (${REMOTE_IP_COLUMN_LIST}) FROM STDIN (FORMAT binary)`,
          remoteIps.payload,
        );
      }
      await finishNodes();
      await session.query("COMMIT");
      return { samplesInserted: samples.rows, remoteIpsInserted: remoteIps.rows, path: "copy" };
    } catch (error) {
      await session.query("ROLLBACK").catch(() => undefined);
      if (!isUniqueViolation(error)) throw error;
    }
    // Some rows exist already: stage, then insert what is missing.
    await session.query("BEGIN");
    try {
      await session.query(STAGE_SQL);
      await copyFromStdin(
        session,
        `COPY ingest_stage_samples (${SAMPLE_COLUMN_LIST}) FROM STDIN (FORMAT binary)`,
        samples.payload,
      );
      const inserted = await session.query(
        `WITH i AS (INSERT INTO node_samples (${SAMPLE_COLUMN_LIST}) SELECT ${SAMPLE_COLUMN_LIST} FROM ingest_stage_samples
         ON CONFLICT (node_id, time) DO NOTHING RETURNING 1) SELECT count(*)::int AS n FROM i`,
      );
      let ipsInserted = 0;
      if (remoteIps.rows > 0) {
        await copyFromStdin(
          session,
          `COPY ingest_stage_remote_ips (${REMOTE_IP_COLUMN_LIST}) FROM STDIN (FORMAT binary)`,
          remoteIps.payload,
        );
        const ips = await session.query(
          `WITH i AS (INSERT INTO node_remote_ips (${REMOTE_IP_COLUMN_LIST}) SELECT ${REMOTE_IP_COLUMN_LIST} FROM ingest_stage_remote_ips
           ON CONFLICT (node_id, time, ip) DO NOTHING RETURNING 1) SELECT count(*)::int AS n FROM i`,
        );
        ipsInserted = Number((ips.rows[0] as { n: number }).n);
      }
      await finishNodes();
      await session.query("COMMIT");
      return {
        samplesInserted: Number((inserted.rows[0] as { n: number }).n),
        remoteIpsInserted: ipsInserted,
        path: "upsert",
      };
    } catch (error) {
      await session.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A session that failed mid-protocol is discarded rather than reused.
    session.release(broken && !(broken as { code?: unknown }).code ? broken : undefined);
  }
}
