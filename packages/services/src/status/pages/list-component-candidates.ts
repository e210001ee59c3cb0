import { listListableEndpoints } from "@rpcpulse/db/status";
import { listOrganizationNodeRows } from "@rpcpulse/db/fleet";
import { listProducerStatuses } from "@rpcpulse/db/producers";
import { type SqlClient } from "@rpcpulse/db/sql";
import { findNetwork } from "@rpcpulse/domain";
import { type ServiceContext, type ServiceDeps } from "../../context.js";
import { listConsensusCandidates } from "../consensus-components.js";

/** What the component picker offers: the organization's nodes, consensus clients and producers, the directory's endpoints. */
export async function listComponentCandidates(deps: ServiceDeps & { sql: SqlClient }, ctx: ServiceContext) {
  const [nodes, endpoints, producers] = await Promise.all([
    listOrganizationNodeRows(deps.prisma, ctx.organizationId),
    listListableEndpoints(deps.prisma, { limit: 500 }),
    listProducerStatuses(deps.sql, { organizationIds: [ctx.organizationId] }),
  ]);
  return {
    consensusClients: await listConsensusCandidates(deps.sql, nodes),
    producers: producers.map((p) => ({
      ref: `producer:${p.id}`,
      label: `${p.account} · ${p.kind} (${findNetwork(p.network)?.name ?? p.network})`,
    })),
    nodes: nodes.map((n) => ({ ref: `node:${n.id}`, label: `${n.name} (${n.networkName})` })),
    endpoints: endpoints.map((e) => ({
      ref: `endpoint:${e.id}`,
      label: `${e.name}${e.provider ? ` · ${e.provider}` : ""} (${e.network.name})`,
    })),
  };
}
