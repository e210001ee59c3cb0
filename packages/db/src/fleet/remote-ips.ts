import { isIP } from "node:net";
import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { int4, toColumnArrays } from "../sql/row-values.js";

/** Connections of a node to one remote IP at sample time (table node_remote_ips). */
export const RemoteIpSample = z.object({
  time: z.coerce.date(),
  nodeId: z.string().uuid(),
  ip: z.string().refine((v) => isIP(v) !== 0, "must be an IPv4 or IPv6 address"),
  conns: int4.nonnegative(),
});
export type RemoteIpSample = z.infer<typeof RemoteIpSample>;
export type RemoteIpSampleInput = z.input<typeof RemoteIpSample>;

const INSERT_SQL = `
WITH inserted AS (
  INSERT INTO node_remote_ips (time, node_id, ip, conns)
  SELECT * FROM unnest($1::timestamptz[], $2::uuid[], $3::inet[], $4::int4[])
  ON CONFLICT (node_id, time, ip) DO NOTHING
  RETURNING 1
)
SELECT count(*)::integer AS inserted FROM inserted`;

/** Bulk insert; rows already stored (same node, time, ip) are skipped. Returns rows inserted. */
export async function insertRemoteIps(sql: SqlClient, rows: readonly RemoteIpSampleInput[]): Promise<number> {
  const parsed = z.array(RemoteIpSample).max(100_000).parse(rows);
  if (parsed.length === 0) return 0;
  const result = await sql.query(INSERT_SQL, toColumnArrays(parsed, ["time", "nodeId", "ip", "conns"]));
  return z.object({ inserted: z.number().int() }).parse(result.rows[0]).inserted;
}

export const GetTopRemoteIpsParams = z.object({
  nodeId: z.string().uuid(),
  from: z.coerce.date(),
  to: z.coerce.date(),
  limit: z.number().int().min(1).max(1000).default(20),
});
export type GetTopRemoteIpsParams = z.input<typeof GetTopRemoteIpsParams>;

export const TopRemoteIp = z.object({
  ip: z.string(),
  maxConns: z.number(),
  avgConns: z.number(),
  samples: z.number(),
});
export type TopRemoteIp = z.infer<typeof TopRemoteIp>;

const TOP_SQL = `
SELECT host(ip) AS ip, max(conns) AS max_conns, avg(conns)::float8 AS avg_conns, count(*)::integer AS samples
FROM node_remote_ips
WHERE node_id = $1 AND time >= $2 AND time < $3
GROUP BY ip
ORDER BY max(conns) DESC, ip
LIMIT $4`;

/** The remote IPs with the most connections to a node over [from, to). */
export async function getTopRemoteIps(sql: SqlClient, params: GetTopRemoteIpsParams): Promise<TopRemoteIp[]> {
  const p = GetTopRemoteIpsParams.parse(params);
  const { rows } = await sql.query(TOP_SQL, [p.nodeId, p.from, p.to, p.limit]);
  return rows.map((r) => {
    const row = z
      .object({
        ip: z.string(),
        max_conns: z.coerce.number(),
        avg_conns: z.coerce.number(),
        samples: z.coerce.number(),
      })
      .parse(r);
    return { ip: row.ip, maxConns: row.max_conns, avgConns: row.avg_conns, samples: row.samples };
  });
}
