import { listOrganizationNodeRows } from "@rpcpulse/db/fleet";
import type { ServiceContext, ServiceDeps } from "../../context.js";

export interface FleetNode {
  id: string;
  name: string;
  network: string;
  chain: string;
  clientName: string;
  clientVersion: string | null;
  region: string | null;
  lastSeenAt: Date | null;
}

/** The nodes of the context's organization, by name. Any member may read it. */
export async function listOrganizationNodes(deps: ServiceDeps, ctx: ServiceContext): Promise<FleetNode[]> {
  const rows = await listOrganizationNodeRows(deps.prisma, ctx.organizationId);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    network: r.networkName,
    chain: r.chainName,
    clientName: r.clientName,
    clientVersion: r.clientVersion,
    region: r.region,
    lastSeenAt: r.lastSeenAt,
  }));
}
