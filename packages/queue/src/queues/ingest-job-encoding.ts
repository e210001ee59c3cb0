import { AppError } from "@rpcpulse/config";
import {
  INGEST_BOOLEAN_METRICS,
  INGEST_NUMERIC_METRICS,
  MAX_INGEST_GROUP_BATCHES,
  MAX_INGEST_SAMPLES,
  type IngestBatchPayload,
} from "./ingest.queue.js";

/**
 * The packed form of an ingest group job (format 2). The first format, `{ items: [payload, ...] }`,
 * spells every payload as an object of 45 one-entry-per-sample arrays under their names: with one
 * sample per batch, the worker's JSON.parse of the job builds ~50 objects and arrays per batch and
 * reads every column name again. Format 2 carries the column names once per job and each batch as
 * one array:
 *
 *   { v: 2, columns: ["time", "headTime", ...], items: [[organizationId, nodeId, networkId,
 *     batchSeq, receivedAtMs, clockSkewMs, agentVersion, clientVersion, n, flat, remoteSample,
 *     remoteIp, remoteConns, rest], ...] }
 *
 * `flat` holds the samples column after column in `columns` order (n entries each), `rest` every
 * other field of the payload as it was (installId, settings, beacon, vantage and any later
 * optional field), so an absent field stays absent and a null stays null. Unpacking rebuilds the
 * payload object the first format would have given; the payload check (parsePayload) then decides
 * on it as before. The columns travel by name, so a worker whose metric list differs reads a job
 * as it would have read the first format's object (a missing column fails the check).
 *
 * A job in the first format is still read (jobs queued by an earlier ingest version), and a
 * worker that predates format 2 refuses these jobs as invalid: parked, not lost, re-driven after
 * the upgrade (upgrade workers first, as for group jobs). A format-2 job that does not unpack is
 * refused whole, before any of its batches is written.
 */
export const INGEST_GROUP_FORMAT = 2;

const COLUMNS = ["time", ...INGEST_NUMERIC_METRICS, ...INGEST_BOOLEAN_METRICS] as const;
const PACKED = [
  "organizationId",
  "nodeId",
  "networkId",
  "batchSeq",
  "receivedAtMs",
  "clockSkewMs",
  "agentVersion",
  "clientVersion",
] as const;
/** Fields carried in their own place of a packed item (the rest go to its last entry). */
const PACKED_KEYS: ReadonlySet<string> = new Set([...PACKED, "samples", "remoteIps"]);
const ITEM_LENGTH = PACKED.length + 6;

export interface PackedIngestGroup {
  v: typeof INGEST_GROUP_FORMAT;
  columns: readonly string[];
  items: unknown[][];
}

function packItem(p: IngestBatchPayload): unknown[] {
  const samples = p.samples as unknown as Record<string, readonly unknown[]>;
  const n = p.samples.time.length;
  const flat: unknown[] = new Array(COLUMNS.length * n);
  let at = 0;
  for (const column of COLUMNS) {
    const values = samples[column]!;
    for (let i = 0; i < n; i++) flat[at++] = values[i];
  }
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(p)) {
    if (!PACKED_KEYS.has(key)) rest[key] = (p as unknown as Record<string, unknown>)[key];
  }
  return [
    p.organizationId,
    p.nodeId,
    p.networkId,
    p.batchSeq,
    p.receivedAtMs,
    p.clockSkewMs,
    p.agentVersion,
    p.clientVersion,
    n,
    flat,
    p.remoteIps.sample,
    p.remoteIps.ip,
    p.remoteIps.conns,
    rest,
  ];
}

/** Checked payloads → the data of one format-2 group job. */
export function packIngestGroup(items: readonly IngestBatchPayload[]): PackedIngestGroup {
  return { v: INGEST_GROUP_FORMAT, columns: COLUMNS, items: items.map(packItem) };
}

const corrupt = (message: string) =>
  new AppError("VALIDATION", `Invalid "ingest" group job payload (format ${INGEST_GROUP_FORMAT}): ${message}`, {
    details: { queue: "ingest", fields: ["items"] },
  });

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function unpackItem(item: unknown, index: number, columns: readonly string[]): Record<string, unknown> {
  const bad = (what: string) => corrupt(`items.${index}: ${what}`);
  if (!Array.isArray(item) || item.length !== ITEM_LENGTH) throw bad(`must be an array of ${ITEM_LENGTH} entries`);
  const [n, flat, sample, ip, conns, rest] = item.slice(PACKED.length) as unknown[];
  if (!Number.isSafeInteger(n) || (n as number) < 1 || (n as number) > MAX_INGEST_SAMPLES)
    throw bad(`sample count must be 1-${MAX_INGEST_SAMPLES}`);
  const count = n as number;
  if (!Array.isArray(flat) || flat.length !== columns.length * count)
    throw bad(`sample values must be ${columns.length} columns × ${count} samples`);
  if (!Array.isArray(sample) || !Array.isArray(ip) || !Array.isArray(conns)) throw bad("remote IPs must be 3 arrays");
  if (!isPlainObject(rest)) throw bad("its last entry must be an object of the other fields");
  for (const key of Object.keys(rest)) {
    if (PACKED_KEYS.has(key) || key === "__proto__") throw bad(`its other fields may not hold "${key}"`);
  }
  const payload: Record<string, unknown> = {};
  PACKED.forEach((key, i) => (payload[key] = item[i]));
  const samples: Record<string, unknown[]> = {};
  for (let c = 0; c < columns.length; c++) samples[columns[c]!] = flat.slice(c * count, (c + 1) * count);
  payload.samples = samples;
  payload.remoteIps = { sample, ip, conns };
  return Object.assign(payload, rest);
}

/**
 * The payloads of a group job's data, each as the first format spells it (not yet checked against
 * the payload schema); undefined when the data is not in format 2 (the first format: `{ items }`).
 * Throws AppError("VALIDATION") naming what is wrong when a format-2 job does not unpack, or when
 * the job is in a format this version does not know.
 */
export function unpackIngestGroup(data: unknown): unknown[] | undefined {
  if (!isPlainObject(data) || data.v === undefined) return undefined;
  if (data.v !== INGEST_GROUP_FORMAT) throw corrupt(`unknown format ${JSON.stringify(data.v)}`);
  const { columns, items } = data;
  if (
    !Array.isArray(columns) ||
    columns.length < 1 ||
    columns.length > 1_000 ||
    !columns.every((c) => typeof c === "string") ||
    new Set(columns).size !== columns.length
  ) {
    throw corrupt("columns must be distinct column names");
  }
  if (!Array.isArray(items) || items.length < 1 || items.length > MAX_INGEST_GROUP_BATCHES)
    throw corrupt(`items must hold 1-${MAX_INGEST_GROUP_BATCHES} batches`);
  return items.map((item, i) => unpackItem(item, i, columns as string[]));
}
