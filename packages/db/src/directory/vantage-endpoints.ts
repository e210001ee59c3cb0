import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";

/**
 * Ids of the listed public endpoints on the same chain as the network `networkId` (a node's network):
 * what an opted-in agent of that node may report vantage probes for. Empty for an unknown network.
 */
export async function listVantageEndpointIds(sql: SqlClient, networkId: string): Promise<string[]> {
  if (!z.uuid().safeParse(networkId).success) return [];
  const { rows } = await sql.query(
    `SELECT e.id FROM public_endpoints e JOIN networks n ON n.id = e.network_id
     WHERE n.chain_slug = (SELECT chain_slug FROM networks WHERE id = $1)`,
    [networkId],
  );
  return z
    .array(z.object({ id: z.string() }))
    .parse(rows)
    .map((r) => r.id);
}

/** The vantage point of one opted-in agent in one region: kind "agent", named after (org, node, region). */
export function agentVantagePointName(input: { organizationId: string; nodeId: string; region: string }): string {
  return `agent:${input.organizationId}:${input.nodeId}:${input.region}`;
}
