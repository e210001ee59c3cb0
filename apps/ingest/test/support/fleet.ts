import { createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
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
  const orgId = organizationId ?? (await createTestOrg(db)).id;
  const node = await createTestNode(db, { organizationId: orgId, network });
  const ctx: ServiceContext = { userId: "u_test", organizationId: orgId, organizationSlug: orgId, role: "owner" };
  return { organizationId: orgId, nodeId: node.id, networkId: node.networkId, ctx };
}

export async function issueToken(db: TestDatabase, node: SeededNode): Promise<{ token: string; tokenId: string }> {
  const issued = await createAgentToken({ sql: db.pool }, node.ctx, { nodeId: node.nodeId });
  return { token: issued.token, tokenId: issued.record.id };
}
