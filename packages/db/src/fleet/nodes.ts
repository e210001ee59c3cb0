import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";

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
