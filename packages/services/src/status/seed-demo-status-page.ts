import { AppError } from "@rpcpulse/config";
import { findOrganizationOwner } from "@rpcpulse/db/orgs";
import { findStatusPageBySlug, getStatusPageBySlug, listListableEndpoints } from "@rpcpulse/db/status";
import { listOrganizationNodeRows } from "@rpcpulse/db/fleet";
import { listProducerStatuses } from "@rpcpulse/db/producers";
import { type PrismaClient, type SqlClient } from "@rpcpulse/db/sql";
import type { ServiceContext } from "../context.js";
import { createStatusComponent } from "./pages/create-status-component.js";
import { createStatusGroup } from "./pages/create-status-group.js";
import { createStatusPage } from "./pages/create-status-page.js";

export const DEMO_STATUS_SLUG = "demo";

/**
 * Demo mode: a public status page of the demo organization listing its nodes and a few public
 * directory endpoints (a community page). Idempotent: existing components are kept, new nodes and
 * endpoints are added. Returns the page slug.
 */
export async function seedDemoStatusPage(
  deps: { prisma: PrismaClient },
  input: { organizationSlug: string; endpoints?: number },
): Promise<{ slug: string; components: number }> {
  const owner = await findOrganizationOwner(deps.prisma, input.organizationSlug);
  if (!owner) throw new AppError("NOT_FOUND", `Organization ${input.organizationSlug} does not exist (yet).`);
  const ctx: ServiceContext = { ...owner, role: "owner" };
  let page = await findStatusPageBySlug(deps.prisma, DEMO_STATUS_SLUG);
  if (page && page.organizationId !== ctx.organizationId) {
    throw new AppError("CONFLICT", `The slug ${DEMO_STATUS_SLUG} belongs to another organization.`);
  }
  if (!page) {
    await createStatusPage(deps, ctx, {
      slug: DEMO_STATUS_SLUG,
      title: "Demo fleet status",
      description: "Live health of the demo fleet's nodes and of a few public RPC endpoints they rely on.",
      isPublic: true,
    });
    page = await getStatusPageBySlug(deps.prisma, DEMO_STATUS_SLUG);
  }
  const groupId = async (name: string, position: number) =>
    page.groups.find((g) => g.name === name)?.id ??
    (await createStatusGroup(deps, ctx, { pageId: page.id, fields: { name, position } })).id;
  const nodesGroup = await groupId("Nodes", 0);
  const endpointsGroup = await groupId("Public endpoints", 1);
  const listed = new Set(page.components.map((c) => c.nodeId ?? c.endpointId));
  let added = 0;
  const nodes = await listOrganizationNodeRows(deps.prisma, ctx.organizationId);
  for (const [i, n] of nodes.entries()) {
    if (listed.has(n.id)) continue;
    await createStatusComponent(deps, ctx, {
      pageId: page.id,
      fields: { ref: `node:${n.id}`, displayName: n.name, groupId: nodesGroup, position: i },
    });
    added++;
  }
  const endpoints = await listListableEndpoints(deps.prisma, { limit: input.endpoints ?? 4 });
  for (const [i, e] of endpoints.entries()) {
    if (listed.has(e.id)) continue;
    await createStatusComponent(deps, ctx, {
      pageId: page.id,
      fields: { ref: `endpoint:${e.id}`, displayName: e.name, groupId: endpointsGroup, position: i },
    });
    added++;
  }
  return { slug: DEMO_STATUS_SLUG, components: page.components.length + added };
}

/**
 * Demo mode, after the demo producers are registered (scripts/demo-alerts.ts): the demo status page
 * lists them in a "Block producers" group (the demo's arcange misses a block every 20 minutes, so the
 * page shows a producer in trouble). Idempotent; returns how many were added.
 */
export async function seedDemoStatusProducers(
  deps: { prisma: PrismaClient; sql: SqlClient },
  input: { organizationSlug: string },
): Promise<number> {
  const owner = await findOrganizationOwner(deps.prisma, input.organizationSlug);
  if (!owner) throw new AppError("NOT_FOUND", `Organization ${input.organizationSlug} does not exist (yet).`);
  const ctx: ServiceContext = { ...owner, role: "owner" };
  const page = await findStatusPageBySlug(deps.prisma, DEMO_STATUS_SLUG);
  if (!page || page.organizationId !== ctx.organizationId) return 0;
  const name = "Block producers";
  const groupId =
    page.groups.find((g) => g.name === name)?.id ??
    (await createStatusGroup(deps, ctx, { pageId: page.id, fields: { name, position: 2 } })).id;
  const listed = new Set(page.components.map((c) => c.producerId));
  let added = 0;
  const producers = await listProducerStatuses(deps.sql, { organizationIds: [ctx.organizationId] });
  for (const [i, p] of producers.entries()) {
    if (listed.has(p.id)) continue;
    await createStatusComponent(deps, ctx, {
      pageId: page.id,
      fields: { ref: `producer:${p.id}`, displayName: `@${p.account} (${p.network})`, groupId, position: i },
    });
    added++;
  }
  return added;
}
