import type { Prisma, PrismaClient, StatusComponentKind } from "../generated/client/index.js";

/** Status pages, groups and components. Every write is scoped by organization id. */

export interface StatusPageFields {
  slug: string;
  title: string;
  description: string;
  isPublic: boolean;
  accentColor: string;
  theme: string;
}

const COMPONENT_NODE = {
  select: {
    id: true,
    name: true,
    organizationId: true,
    createdAt: true,
    network: { select: { slug: true, name: true } },
  },
} satisfies Prisma.NodeDefaultArgs;

const PAGE_TREE = {
  groups: { orderBy: [{ position: "asc" }, { name: "asc" }] },
  components: {
    orderBy: [{ position: "asc" }, { displayName: "asc" }],
    include: {
      node: COMPONENT_NODE,
      /** Kind consensus_client: the node the consensus client runs beside (its readings are the node's). */
      beaconNode: COMPONENT_NODE,
      endpoint: {
        select: {
          id: true,
          name: true,
          provider: true,
          status: true,
          createdAt: true,
          network: { select: { slug: true, name: true } },
        },
      },
    },
  },
} satisfies Prisma.StatusPageInclude;

export type StatusPageTree = Prisma.StatusPageGetPayload<{ include: typeof PAGE_TREE }>;

export async function listOrgStatusPages(prisma: PrismaClient, organizationId: string) {
  return prisma.statusPage.findMany({
    where: { organizationId },
    orderBy: { title: "asc" },
    include: { _count: { select: { components: true, subscribers: true } } },
  });
}

export async function findOrgStatusPage(
  prisma: PrismaClient,
  input: { organizationId: string; pageId: string },
): Promise<StatusPageTree | null> {
  return prisma.statusPage.findFirst({
    where: { id: input.pageId, organizationId: input.organizationId },
    include: PAGE_TREE,
  });
}

/** A public page by slug or by verified custom domain (drafts are never returned). */
export async function findPublicStatusPage(
  prisma: PrismaClient,
  by: { slug: string } | { domain: string },
): Promise<StatusPageTree | null> {
  const where: Prisma.StatusPageWhereInput =
    "slug" in by ? { slug: by.slug, isPublic: true } : { verifiedDomain: by.domain, isPublic: true };
  return prisma.statusPage.findFirst({ where, include: PAGE_TREE });
}

/** Slug look-ups of the demo seed: the page with its groups and components (unordered), drafts included. */
const PAGE_PARTS = { groups: true, components: true } satisfies Prisma.StatusPageInclude;

export type StatusPageWithParts = Prisma.StatusPageGetPayload<{ include: typeof PAGE_PARTS }>;

export async function findStatusPageBySlug(prisma: PrismaClient, slug: string): Promise<StatusPageWithParts | null> {
  return prisma.statusPage.findUnique({ where: { slug }, include: PAGE_PARTS });
}

/** As findStatusPageBySlug, for a page that must exist (just created): throws Prisma's not-found error otherwise. */
export async function getStatusPageBySlug(prisma: PrismaClient, slug: string): Promise<StatusPageWithParts> {
  return prisma.statusPage.findUniqueOrThrow({ where: { slug }, include: PAGE_PARTS });
}

/** The public pages among `pageIds` (drafts left out): what a subscriber notification links to. */
export async function listPublicStatusPagesByIds(
  prisma: PrismaClient,
  pageIds: readonly string[],
): Promise<{ id: string; slug: string; title: string }[]> {
  return prisma.statusPage.findMany({
    where: { id: { in: [...pageIds] }, isPublic: true },
    select: { id: true, slug: true, title: true },
  });
}

export async function insertStatusPage(
  prisma: PrismaClient,
  input: StatusPageFields & { organizationId: string },
): Promise<{ id: string }> {
  return prisma.statusPage.create({ data: input, select: { id: true } });
}

export async function updateStatusPage(
  prisma: PrismaClient,
  input: { organizationId: string; pageId: string; fields: Partial<StatusPageFields> },
): Promise<boolean> {
  const { count } = await prisma.statusPage.updateMany({
    where: { id: input.pageId, organizationId: input.organizationId },
    data: input.fields,
  });
  return count > 0;
}

export async function setStatusPageDomain(
  prisma: PrismaClient,
  input: { organizationId: string; pageId: string; domain: string | null; verifyToken: string | null },
): Promise<boolean> {
  const { count } = await prisma.statusPage.updateMany({
    where: { id: input.pageId, organizationId: input.organizationId },
    data: {
      customDomain: input.domain,
      domainVerifyToken: input.verifyToken,
      domainVerifiedAt: null,
      verifiedDomain: null,
    },
  });
  return count > 0;
}

/**
 * The page's custom domain is verified (its TXT record was seen just now): the page serves it, and any
 * other page that served the same domain stops (the current proof counts), in one transaction. False
 * when the page has no custom domain or is not the organization's. A concurrent verification of the
 * same domain fails on the unique index (Prisma P2002).
 */
export async function markStatusPageDomainVerified(
  prisma: PrismaClient,
  input: { organizationId: string; pageId: string; domain: string; at: Date },
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    await tx.statusPage.updateMany({
      where: { verifiedDomain: input.domain, NOT: { id: input.pageId } },
      data: { verifiedDomain: null, domainVerifiedAt: null },
    });
    const { count } = await tx.statusPage.updateMany({
      where: { id: input.pageId, organizationId: input.organizationId, customDomain: input.domain },
      data: { domainVerifiedAt: input.at, verifiedDomain: input.domain },
    });
    return count > 0;
  });
}

export async function deleteStatusPage(
  prisma: PrismaClient,
  input: { organizationId: string; pageId: string },
): Promise<boolean> {
  const { count } = await prisma.statusPage.deleteMany({
    where: { id: input.pageId, organizationId: input.organizationId },
  });
  return count > 0;
}

async function pageOfOrg(prisma: PrismaClient, organizationId: string, pageId: string): Promise<boolean> {
  return (await prisma.statusPage.count({ where: { id: pageId, organizationId } })) > 0;
}

/** Serialise group writes of one page (append at the end, reorder) inside a transaction. */
async function lockPageGroups(tx: Prisma.TransactionClient, pageId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`status-groups:${pageId}`}))`;
}

/** Without a position the group goes last (one after the highest position of the page). */
export async function insertStatusGroup(
  prisma: PrismaClient,
  input: { organizationId: string; pageId: string; name: string; position?: number | undefined },
): Promise<{ id: string } | null> {
  if (!(await pageOfOrg(prisma, input.organizationId, input.pageId))) return null;
  return prisma.$transaction(async (tx) => {
    await lockPageGroups(tx, input.pageId);
    let position = input.position;
    if (position === undefined) {
      const last = await tx.statusGroup.aggregate({ where: { pageId: input.pageId }, _max: { position: true } });
      position = last._max.position === null ? 0 : last._max.position + 1;
    }
    return tx.statusGroup.create({ data: { pageId: input.pageId, name: input.name, position }, select: { id: true } });
  });
}

export async function renameStatusGroup(
  prisma: PrismaClient,
  input: { organizationId: string; groupId: string; name: string },
): Promise<boolean> {
  const { count } = await prisma.statusGroup.updateMany({
    where: { id: input.groupId, page: { organizationId: input.organizationId } },
    data: { name: input.name },
  });
  return count > 0;
}

/** A page's groups in the order pages show them (ties broken by name, then id). */
async function listPageGroupsLocked(tx: Prisma.TransactionClient, pageId: string) {
  await lockPageGroups(tx, pageId);
  return tx.statusGroup.findMany({
    where: { pageId },
    orderBy: [{ position: "asc" }, { name: "asc" }, { id: "asc" }],
    select: { id: true, position: true },
  });
}

async function renumberGroups(tx: Prisma.TransactionClient, groups: { id: string; position: number }[]) {
  for (const [index, g] of groups.entries()) {
    if (g.position !== index) await tx.statusGroup.update({ where: { id: g.id }, data: { position: index } });
  }
}

async function findOrgGroupPage(prisma: PrismaClient, input: { organizationId: string; groupId: string }) {
  const group = await prisma.statusGroup.findFirst({
    where: { id: input.groupId, page: { organizationId: input.organizationId } },
    select: { pageId: true },
  });
  return group?.pageId ?? null;
}

/**
 * Move a group one place up or down among its page's groups and renumber the page's groups
 * 0..n-1, in one transaction serialised per page. False when the group is not the
 * organization's; moving the first group up (or the last down) changes nothing.
 */
export async function moveStatusGroup(
  prisma: PrismaClient,
  input: { organizationId: string; groupId: string; direction: "up" | "down" },
): Promise<boolean> {
  const pageId = await findOrgGroupPage(prisma, input);
  if (!pageId) return false;
  return prisma.$transaction(async (tx) => {
    const groups = await listPageGroupsLocked(tx, pageId);
    const at = groups.findIndex((g) => g.id === input.groupId);
    if (at === -1) return false;
    const to = input.direction === "up" ? at - 1 : at + 1;
    if (to >= 0 && to < groups.length) [groups[at], groups[to]] = [groups[to]!, groups[at]!];
    await renumberGroups(tx, groups);
    return true;
  });
}

/** Delete a group (its components stay, ungrouped) and close the gap in the page's positions. */
export async function deleteStatusGroup(
  prisma: PrismaClient,
  input: { organizationId: string; groupId: string },
): Promise<boolean> {
  const pageId = await findOrgGroupPage(prisma, input);
  if (!pageId) return false;
  return prisma.$transaction(async (tx) => {
    await lockPageGroups(tx, pageId);
    const { count } = await tx.statusGroup.deleteMany({ where: { id: input.groupId, pageId } });
    if (count === 0) return false;
    await renumberGroups(tx, await listPageGroupsLocked(tx, pageId));
    return true;
  });
}

export interface NewStatusComponent {
  organizationId: string;
  pageId: string;
  groupId: string | null;
  kind: StatusComponentKind;
  refId: string;
  displayName: string;
  description: string;
  position: number;
}

/** The caller has checked the ref is allowed (own node, own node's consensus client, own producer, or a directory endpoint). */
export async function insertStatusComponent(
  prisma: PrismaClient,
  input: NewStatusComponent,
): Promise<{ id: string } | null> {
  if (!(await pageOfOrg(prisma, input.organizationId, input.pageId))) return null;
  if (input.groupId) {
    const group = await prisma.statusGroup.count({ where: { id: input.groupId, pageId: input.pageId } });
    if (group === 0) return null;
  }
  return prisma.statusComponent.create({
    data: {
      pageId: input.pageId,
      groupId: input.groupId,
      kind: input.kind,
      nodeId: input.kind === "node" ? input.refId : null,
      endpointId: input.kind === "endpoint" ? input.refId : null,
      producerId: input.kind === "producer" ? input.refId : null,
      beaconNodeId: input.kind === "consensus_client" ? input.refId : null,
      displayName: input.displayName,
      description: input.description,
      position: input.position,
    },
    select: { id: true },
  });
}

export async function updateStatusComponent(
  prisma: PrismaClient,
  input: {
    organizationId: string;
    componentId: string;
    displayName: string;
    description: string;
    position: number;
    groupId: string | null;
  },
): Promise<boolean> {
  const component = await prisma.statusComponent.findFirst({
    where: { id: input.componentId, page: { organizationId: input.organizationId } },
    select: { pageId: true },
  });
  if (!component) return false;
  if (input.groupId) {
    const group = await prisma.statusGroup.count({ where: { id: input.groupId, pageId: component.pageId } });
    if (group === 0) return false;
  }
  await prisma.statusComponent.update({
    where: { id: input.componentId },
    data: {
      displayName: input.displayName,
      description: input.description,
      position: input.position,
      groupId: input.groupId,
    },
  });
  return true;
}

export async function deleteStatusComponent(
  prisma: PrismaClient,
  input: { organizationId: string; componentId: string },
): Promise<boolean> {
  const { count } = await prisma.statusComponent.deleteMany({
    where: { id: input.componentId, page: { organizationId: input.organizationId } },
  });
  return count > 0;
}

/** Public directory endpoints a community page may list (listed = probation or active). */
export async function listListableEndpoints(prisma: PrismaClient, input: { limit: number }) {
  return prisma.publicEndpoint.findMany({
    where: { status: { in: ["active", "probation"] } },
    select: { id: true, name: true, provider: true, url: true, network: { select: { slug: true, name: true } } },
    orderBy: [{ network: { slug: "asc" } }, { name: "asc" }],
    take: input.limit,
  });
}

export async function findListableEndpoint(prisma: PrismaClient, endpointId: string) {
  return prisma.publicEndpoint.findFirst({
    where: { id: endpointId, status: { in: ["active", "probation"] } },
    select: { id: true, name: true },
  });
}

export async function findOrgNodeName(
  prisma: PrismaClient,
  input: { organizationId: string; nodeId: string },
): Promise<{ id: string; name: string } | null> {
  return prisma.node.findFirst({
    where: { id: input.nodeId, organizationId: input.organizationId },
    select: { id: true, name: true },
  });
}
