import { isIP } from "node:net";
import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber } from "../sql/row-values.js";

/** Bucket widths the remote-IP series may use (never a free-form interval in SQL). */
export const REMOTE_IP_BUCKET_SECONDS = [10, 60, 300, 600, 3_600, 21_600] as const;

export const GetRemoteIpSeriesParams = z
  .object({
    nodeId: z.string().uuid(),
    from: z.coerce.date(),
    to: z.coerce.date(),
    ips: z.array(z.string().refine((v) => isIP(v) !== 0, "must be an IP address")).max(50),
    bucketSeconds: z.union(
      REMOTE_IP_BUCKET_SECONDS.map((s) => z.literal(s)) as [z.ZodLiteral<10>, ...z.ZodLiteral<number>[]],
    ),
  })
  .refine((p) => p.from.getTime() < p.to.getTime(), { message: "from must be before to", path: ["from"] });
export type GetRemoteIpSeriesParams = z.input<typeof GetRemoteIpSeriesParams>;

export interface RemoteIpSeriesPoint {
  time: Date;
  ip: string;
  /** Highest connection count from the IP seen in the bucket. */
  maxConns: number;
}

const SERIES_SQL = `
SELECT date_bin(make_interval(secs => $5::int), time, TIMESTAMPTZ '2000-01-01') AS bucket,
       host(ip) AS ip, max(conns) AS max_conns
FROM node_remote_ips
WHERE node_id = $1 AND time >= $2 AND time < $3 AND ip = ANY($4::inet[])
GROUP BY 1, 2
ORDER BY 1, 2`;

const Row = z.object({ bucket: dbDate, ip: z.string(), max_conns: dbNumber });

/**
 * Connections from the given remote IPs to a node over [from, to), bucketed (max per bucket):
 * the "top remote IPs over time" chart. date_bin works in both storage modes.
 */
export async function getRemoteIpSeries(
  sql: SqlClient,
  params: GetRemoteIpSeriesParams,
): Promise<RemoteIpSeriesPoint[]> {
  const p = GetRemoteIpSeriesParams.parse(params);
  if (p.ips.length === 0) return [];
  const { rows } = await sql.query(SERIES_SQL, [p.nodeId, p.from, p.to, p.ips, p.bucketSeconds]);
  return rows.map((raw) => {
    const r = Row.parse(raw);
    return { time: r.bucket, ip: r.ip, maxConns: r.max_conns };
  });
}
