import { randomBytes } from "node:crypto";
import type { TestDatabase } from "@rpcpulse/db/testing";
import { createAgentToken } from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";

export interface SeededNode {
  organizationId: string;
  nodeId: string;
  networkId: string;
  ctx: ServiceContext;
}

/** An organization (or the given one) with one node (Hive unless `network` names another), as enrollment would create. */
export async function seedNode(db: TestDatabase, organizationId?: string, network = "hive"): Promise<SeededNode> {
  const orgId = organizationId ?? `org_${randomBytes(6).toString("hex")}`;
  if (!organizationId) {
    await db.pool.query("INSERT INTO organizations (id, name, slug) VALUES ($1, $1, $1)", [orgId]);
  }
  const found = await db.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = $1", [network]);
  const networkId = found.rows[0]!.id;
  const node = await db.pool.query<{ id: string }>(
    `INSERT INTO nodes (organization_id, network_id, api_family, client_name, name, local_rpc_url)
     VALUES ($1, $2, 'hive', 'hived', $3, 'http://127.0.0.1:8091') RETURNING id`,
    [orgId, networkId, `node-${randomBytes(4).toString("hex")}`],
  );
  const ctx: ServiceContext = { userId: "u_test", organizationId: orgId, organizationSlug: orgId, role: "owner" };
  return { organizationId: orgId, nodeId: node.rows[0]!.id, networkId, ctx };
}

export async function issueToken(db: TestDatabase, node: SeededNode): Promise<{ token: string; tokenId: string }> {
  const issued = await createAgentToken({ sql: db.pool }, node.ctx, { nodeId: node.nodeId });
  return { token: issued.token, tokenId: issued.record.id };
}
