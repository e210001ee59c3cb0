import { z } from "zod";
import type { SqlClient } from "../sql-client.js";
import { dbDate, dbNumber } from "../timeseries/row-values.js";

/** A node of an organization (tenant-scoped lookup); null when it is not that organization's. */
export async function findOrganizationNode(
  sql: SqlClient,
  input: { organizationId: string; nodeId: string },
): Promise<{ id: string; organizationId: string; networkId: string } | null> {
  if (!z.string().uuid().safeParse(input.nodeId).success) return null;
  const { rows } = await sql.query(
    "SELECT id, organization_id, network_id FROM nodes WHERE id = $1::uuid AND organization_id = $2",
    [input.nodeId, input.organizationId],
  );
  const row = rows[0] as { id: string; organization_id: string; network_id: string } | undefined;
  return row ? { id: row.id, organizationId: row.organization_id, networkId: row.network_id } : null;
}

export const NetworkHead = z
  .object({ network_id: z.string(), head_block: dbNumber, time: dbDate })
  .transform((r) => ({ networkId: r.network_id, headBlock: r.head_block, time: r.time }));
export type NetworkHead = z.infer<typeof NetworkHead>;

/**
 * Highest head block per network among the nodes' newest samples taken since `since`
 * (node_latest pointers, one primary-key lookup per node).
 */
export async function listNetworkHeads(sql: SqlClient, since: Date): Promise<NetworkHead[]> {
  const { rows } = await sql.query(
    `SELECT n.network_id, max(s.head_block) AS head_block, max(s.time) AS time
     FROM node_latest l
     JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
     JOIN nodes n ON n.id = l.node_id
     WHERE l.time >= $1 AND s.head_block IS NOT NULL
     GROUP BY n.network_id`,
    [since],
  );
  return rows.map((r) => NetworkHead.parse(r));
}
