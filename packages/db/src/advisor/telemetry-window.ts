import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { NodeSampleRow, toNodeSampleRow } from "../fleet/node-samples.js";
import { dbDate, dbNumber } from "../sql/row-values.js";

/**
 * The telemetry window the tuning advisor evaluates: a node's raw samples over [from, to) and the
 * top remote IPs of each of those samples, time-ordered. Raw rows (not rollups): the rules look at
 * per-sample deltas (listen overflows) and per-sample distributions (per-IP concurrency).
 * Same relations in both storage modes.
 */
export const LoadAdvisorWindowParams = z
  .object({
    nodeId: z.string().uuid(),
    from: z.coerce.date(),
    to: z.coerce.date(),
    /** Upper bound on samples read (newest kept); a 10 s agent gives 360 per hour. */
    maxSamples: z.number().int().min(1).max(20_000).default(5_000),
  })
  .refine((p) => p.from.getTime() < p.to.getTime(), { message: "from must be before to", path: ["from"] });
export type LoadAdvisorWindowParams = z.input<typeof LoadAdvisorWindowParams>;

export interface AdvisorWindowRemoteIp {
  time: Date;
  ip: string;
  connections: number;
}

export interface AdvisorWindow {
  from: Date;
  to: Date;
  /** node_samples rows, camelCase columns, oldest first. */
  samples: NodeSampleRow[];
  remoteIps: AdvisorWindowRemoteIp[];
}

const SAMPLES_SQL = `
SELECT * FROM (
  SELECT * FROM node_samples
  WHERE node_id = $1 AND time >= $2 AND time < $3
  ORDER BY time DESC
  LIMIT $4
) newest
ORDER BY time`;

const REMOTE_IPS_SQL = `
SELECT time, host(ip) AS ip, conns
FROM node_remote_ips
WHERE node_id = $1 AND time >= $2 AND time < $3
ORDER BY time, conns DESC, ip`;

const RemoteIpRow = z.object({ time: dbDate, ip: z.string(), conns: dbNumber });

/** Load a node's advisor window (see above): samples and remote IPs over the same range. */
export async function loadAdvisorWindow(sql: SqlClient, params: LoadAdvisorWindowParams): Promise<AdvisorWindow> {
  const p = LoadAdvisorWindowParams.parse(params);
  const { rows } = await sql.query(SAMPLES_SQL, [p.nodeId, p.from, p.to, p.maxSamples]);
  const samples = rows.map((r) => NodeSampleRow.parse(r));
  // Remote IPs only for the samples kept (the window may have been cut to its newest part).
  const from = samples.length > 0 ? samples[0]!.time : p.from;
  const ipRows = samples.length > 0 ? (await sql.query(REMOTE_IPS_SQL, [p.nodeId, from, p.to])).rows : [];
  const remoteIps = ipRows.map((raw) => {
    const r = RemoteIpRow.parse(raw);
    return { time: r.time, ip: r.ip, connections: r.conns };
  });
  return { from: p.from, to: p.to, samples, remoteIps };
}

const WINDOWS_SAMPLES_SQL = `
SELECT s.*
FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) AS w(node_id, t_from, t_to)
CROSS JOIN LATERAL (
  SELECT * FROM node_samples
  WHERE node_id = w.node_id AND time >= w.t_from AND time < w.t_to
  ORDER BY time DESC
  LIMIT $4
) s
ORDER BY s.node_id, s.time`;

const WINDOWS_REMOTE_IPS_SQL = `
SELECT r.node_id, r.time, host(r.ip) AS ip, r.conns
FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) AS w(node_id, t_from, t_to)
JOIN node_remote_ips r ON r.node_id = w.node_id AND r.time >= w.t_from AND r.time < w.t_to
ORDER BY r.node_id, r.time, r.conns DESC, r.ip`;

const NodeRemoteIpRow = RemoteIpRow.extend({ node_id: z.string() });

/**
 * The advisor windows of several nodes (the sweep's batch): the same rows loadAdvisorWindow reads
 * for each, in two queries for the whole batch instead of two per node. Keyed by node id; a node
 * listed twice gets its last window.
 */
export async function loadAdvisorWindows(
  sql: SqlClient,
  params: { windows: readonly { nodeId: string; from: Date; to: Date }[]; maxSamples?: number },
): Promise<Map<string, AdvisorWindow>> {
  const windows = params.windows.map((w) => LoadAdvisorWindowParams.parse({ ...w, maxSamples: params.maxSamples }));
  const out = new Map<string, AdvisorWindow>();
  if (windows.length === 0) return out;
  for (const w of windows) out.set(w.nodeId, { from: w.from, to: w.to, samples: [], remoteIps: [] });
  const { rows } = await sql.query(WINDOWS_SAMPLES_SQL, [
    windows.map((w) => w.nodeId),
    windows.map((w) => w.from),
    windows.map((w) => w.to),
    windows[0]!.maxSamples,
  ]);
  for (const raw of rows) {
    const sample = toNodeSampleRow(raw as Record<string, unknown>);
    out.get(sample.nodeId)?.samples.push(sample);
  }
  // Remote IPs only for the samples kept, as loadAdvisorWindow does.
  const withSamples = [...out].filter(([, w]) => w.samples.length > 0);
  if (withSamples.length === 0) return out;
  const ips = await sql.query(WINDOWS_REMOTE_IPS_SQL, [
    withSamples.map(([id]) => id),
    withSamples.map(([, w]) => w.samples[0]!.time),
    withSamples.map(([, w]) => w.to),
  ]);
  for (const raw of ips.rows) {
    const r = NodeRemoteIpRow.parse(raw);
    out.get(r.node_id)?.remoteIps.push({ time: r.time, ip: r.ip, connections: r.conns });
  }
  return out;
}
