import type { Prisma, PrismaClient } from "../sql/client.js";

/**
 * Relational queries on nodes (Prisma model Node). Every read and write names the organization, so
 * a node id of another organization behaves exactly like one that does not exist.
 */

export type ApiFamilyValue = "hive" | "ethereum" | "substrate" | "sidecar";

export interface NodeRow {
  id: string;
  organizationId: string;
  name: string;
  networkId: string;
  networkSlug: string;
  networkName: string;
  chainSlug: string;
  chainName: string;
  blockIntervalMs: number;
  apiFamily: ApiFamilyValue;
  clientName: string;
  clientVersion: string | null;
  localRpcUrl: string;
  publicUrl: string | null;
  region: string | null;
  createdAt: Date;
  lastSeenAt: Date | null;
  agentVersion: string | null;
}

export interface NodeFields {
  networkId: string;
  apiFamily: ApiFamilyValue;
  clientName: string;
  clientVersion: string | null;
  name: string;
  localRpcUrl: string;
  publicUrl: string | null;
  region: string | null;
}

/** A write refused because another node of the organization already has that name. */
export type NodeWriteResult = { ok: true; node: NodeRow } | { ok: false; reason: "name-taken" | "not-found" };

const NODE_SELECT = {
  id: true,
  organizationId: true,
  name: true,
  networkId: true,
  apiFamily: true,
  clientName: true,
  clientVersion: true,
  localRpcUrl: true,
  publicUrl: true,
  region: true,
  createdAt: true,
  lastSeenAt: true,
  agentVersion: true,
  network: {
    select: { slug: true, name: true, blockIntervalMs: true, chain: { select: { slug: true, name: true } } },
  },
} as const;

type SelectedNode = Prisma.NodeGetPayload<{ select: typeof NODE_SELECT }>;

function toNodeRow(r: SelectedNode): NodeRow {
  return {
    id: r.id,
    organizationId: r.organizationId,
    name: r.name,
    networkId: r.networkId,
    networkSlug: r.network.slug,
    networkName: r.network.name,
    chainSlug: r.network.chain.slug,
    chainName: r.network.chain.name,
    blockIntervalMs: r.network.blockIntervalMs,
    apiFamily: r.apiFamily,
    clientName: r.clientName,
    clientVersion: r.clientVersion,
    localRpcUrl: r.localRpcUrl,
    publicUrl: r.publicUrl,
    region: r.region,
    createdAt: r.createdAt,
    lastSeenAt: r.lastSeenAt,
    agentVersion: r.agentVersion,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Prisma's unique violation, recognised by its code: Next bundles a copy of the Prisma runtime per route,
 * so `instanceof Prisma.PrismaClientKnownRequestError` is false there and a taken name became a 500.
 */
function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === "PrismaClientKnownRequestError" &&
    (error as { code?: unknown }).code === "P2002"
  );
}

/** The nodes of an organization, by name. */
export async function listOrganizationNodeRows(prisma: PrismaClient, organizationId: string): Promise<NodeRow[]> {
  const rows = await prisma.node.findMany({
    where: { organizationId },
    select: NODE_SELECT,
    orderBy: { name: "asc" },
  });
  return rows.map(toNodeRow);
}

/** One node of an organization; null for an unknown id or a node of another organization. */
export async function findOrganizationNodeRow(
  prisma: PrismaClient,
  input: { organizationId: string; nodeId: string },
): Promise<NodeRow | null> {
  if (!UUID.test(input.nodeId)) return null;
  const row = await prisma.node.findFirst({
    where: { id: input.nodeId, organizationId: input.organizationId },
    select: NODE_SELECT,
  });
  return row ? toNodeRow(row) : null;
}

export async function insertNodeRow(
  prisma: PrismaClient,
  input: { organizationId: string } & NodeFields,
): Promise<NodeWriteResult> {
  try {
    const row = await prisma.node.create({ data: input, select: NODE_SELECT });
    return { ok: true, node: toNodeRow(row) };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: "name-taken" };
    throw error;
  }
}

/** Update a node of the organization (updateMany keeps the organization in the WHERE clause). */
export async function updateNodeRow(
  prisma: PrismaClient,
  input: { organizationId: string; nodeId: string } & NodeFields,
): Promise<NodeWriteResult> {
  if (!UUID.test(input.nodeId)) return { ok: false, reason: "not-found" };
  const { organizationId, nodeId, ...data } = input;
  try {
    const { count } = await prisma.node.updateMany({ where: { id: nodeId, organizationId }, data });
    if (count === 0) return { ok: false, reason: "not-found" };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: "name-taken" };
    throw error;
  }
  const node = await findOrganizationNodeRow(prisma, { organizationId, nodeId });
  return node ? { ok: true, node } : { ok: false, reason: "not-found" };
}

/**
 * Delete a node of the organization; its tokens go with it (cascade) and are returned, so the
 * caller can tell every ingest process to stop accepting them. null when there was no such node.
 * The node row is locked first: a token issued concurrently waits and is either listed or never made.
 */
export async function deleteNodeRow(
  prisma: PrismaClient,
  input: { organizationId: string; nodeId: string },
): Promise<{ tokens: { id: string; prefix: string }[] } | null> {
  if (!UUID.test(input.nodeId)) return null;
  return prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM nodes WHERE id = ${input.nodeId}::uuid AND organization_id = ${input.organizationId} FOR UPDATE`;
    if (locked.length === 0) return null;
    const tokens = await tx.agentToken.findMany({
      where: { nodeId: input.nodeId },
      select: { id: true, prefix: true },
    });
    await tx.node.delete({ where: { id: input.nodeId } });
    return { tokens };
  });
}

/** A network of the catalogue by slug, with its chain's API families. */
export async function findNetworkBySlug(
  prisma: PrismaClient,
  slug: string,
): Promise<{ id: string; slug: string; chainSlug: string; apiFamilies: ApiFamilyValue[] } | null> {
  const row = await prisma.network.findUnique({
    where: { slug },
    select: { id: true, slug: true, chainSlug: true, chain: { select: { apiFamilies: true } } },
  });
  return row ? { id: row.id, slug: row.slug, chainSlug: row.chainSlug, apiFamilies: row.chain.apiFamilies } : null;
}
