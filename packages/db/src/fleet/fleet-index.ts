import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbNumber, dbNumberOrNull } from "../sql/row-values.js";

export const ListFleetIndexParams = z.object({ organizationId: z.string().min(1).max(64) });
export type ListFleetIndexParams = z.input<typeof ListFleetIndexParams>;

/**
 * One node of an organization with only what the fleet overview needs to compute its status,
 * count it, filter it and sort it (all sort keys but latency and chain heads). Times are epoch
 * milliseconds, truncated like a JS Date, so that 10,000 rows cost no timestamp parsing.
 */
export interface FleetIndexRow {
  id: string;
  name: string;
  networkSlug: string;
  networkName: string;
  blockIntervalMs: number;
  clientName: string;
  clientVersion: string | null;
  agentVersion: string | null;
  /** Later of the newest sample's time and the server's last receipt (null: never seen). */
  lastSeenMs: number | null;
  /** Newest sample's head time (null without one). */
  headTimeMs: number | null;
  headAgeMs: number | null;
  lagBlocks: number | null;
  syncing: boolean | null;
  tcpEstablished: number | null;
  tcpTimeWait: number | null;
}

// The newest sample through the node_latest pointer, as in fleet-overview.ts; greatest() skips nulls.
const FLEET_INDEX_SQL = `
SELECT n.id, n.name, net.slug AS network_slug, net.name AS network_name, net.block_interval_ms,
       n.client_name, n.client_version, n.agent_version,
       floor(extract(epoch FROM greatest(s.time, n.last_seen_at)) * 1000)::float8 AS last_seen_ms,
       floor(extract(epoch FROM s.head_time) * 1000)::float8 AS head_time_ms,
       s.head_age_ms::float8 AS head_age_ms, s.lag_blocks, s.syncing, s.tcp_established, s.tcp_time_wait
FROM nodes n
JOIN networks net ON net.id = n.network_id
LEFT JOIN node_latest l ON l.node_id = n.id
LEFT JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
WHERE n.organization_id = $1`;

const str = z.string();
const strOrNull = z.string().nullable();
const Row = z.object({
  id: str,
  name: str,
  network_slug: str,
  network_name: str,
  block_interval_ms: dbNumber,
  client_name: str,
  client_version: strOrNull,
  agent_version: strOrNull,
  last_seen_ms: dbNumberOrNull,
  head_time_ms: dbNumberOrNull,
  head_age_ms: dbNumberOrNull,
  lag_blocks: dbNumberOrNull,
  syncing: z.boolean().nullable(),
  tcp_established: dbNumberOrNull,
  tcp_time_wait: dbNumberOrNull,
});

/** Every node of an organization, lean (see FleetIndexRow); in no particular order. */
export async function listFleetIndex(sql: SqlClient, params: ListFleetIndexParams): Promise<FleetIndexRow[]> {
  const p = ListFleetIndexParams.parse(params);
  const { rows } = await sql.query(FLEET_INDEX_SQL, [p.organizationId]);
  return rows.map((raw) => {
    const r = Row.parse(raw);
    return {
      id: r.id,
      name: r.name,
      networkSlug: r.network_slug,
      networkName: r.network_name,
      blockIntervalMs: r.block_interval_ms,
      clientName: r.client_name,
      clientVersion: r.client_version,
      agentVersion: r.agent_version,
      lastSeenMs: r.last_seen_ms,
      headTimeMs: r.head_time_ms,
      headAgeMs: r.head_age_ms,
      lagBlocks: r.lag_blocks,
      syncing: r.syncing,
      tcpEstablished: r.tcp_established,
      tcpTimeWait: r.tcp_time_wait,
    };
  });
}
