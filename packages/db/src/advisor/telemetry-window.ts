import { z } from "zod";
import type { SqlClient } from "../sql-client.js";
import { NodeSampleRow } from "../timeseries/node-samples.js";
import { dbDate, dbNumber } from "../timeseries/row-values.js";

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
