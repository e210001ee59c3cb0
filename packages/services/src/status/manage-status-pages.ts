import { resolveTxt } from "node:dns/promises";
import { randomBytes } from "node:crypto";
import { AppError } from "@rpcpulse/config";
import {
  deleteStatusComponent,
  deleteStatusGroup,
  deleteStatusPage,
  findListableEndpoint,
  findOrgNodeName,
  findOrgStatusPage,
  insertStatusComponent,
  insertStatusGroup,
  insertStatusPage,
  listListableEndpoints,
  listOrgStatusPages,
  listOrganizationNodeRows,
  listProducerStatuses,
  markStatusPageDomainVerified,
  moveStatusGroup,
  renameStatusGroup,
  setStatusPageDomain,
  updateStatusComponent,
  updateStatusPage,
  type SqlClient,
  type StatusPageTree,
} from "@rpcpulse/db";
import { findNetwork } from "@rpcpulse/domain";
import { z } from "zod";
import { requireRole, type ServiceContext, type ServiceDeps } from "../context.js";
import { requireUuid } from "./ids.js";
import { parseFields } from "./parse-fields.js";
import { findOrgConsensusNode, listConsensusCandidates } from "./consensus-components.js";
import { invalidateStatusSnapshots } from "./snapshot-cache.js";

/** Admin verbs for status pages: viewers read, admins and owners write. */

const RESERVED_SLUGS = new Set(["new", "api", "admin", "app", "static", "assets"]);

export const PageInput = z.object({
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, "2–63 characters: lower-case letters, digits and dashes.")
    .refine((s) => !RESERVED_SLUGS.has(s), "That slug is reserved."),
  title: z.string().trim().min(1, "A title is needed.").max(120),
  description: z.string().trim().max(1_000).default(""),
  isPublic: z
    .union([z.boolean(), z.enum(["on", "true", "false", ""])])
    .default(false)
    .transform((v) => v === true || v === "on" || v === "true"),
  accentColor: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, "A colour like #2563eb.")
    .default("#2563eb"),
  theme: z.enum(["auto", "light", "dark"]).default("auto"),
});
export type PageInput = z.input<typeof PageInput>;

const Uuid = z.string().uuid();

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";
}

export async function listStatusPages(deps: ServiceDeps, ctx: ServiceContext) {
  const rows = await listOrgStatusPages(deps.prisma, ctx.organizationId);
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    title: r.title,
    isPublic: r.isPublic,
    customDomain: r.customDomain,
    domainVerified: r.domainVerifiedAt !== null,
    components: r._count.components,
    subscribers: r._count.subscribers,
  }));
}

export async function getStatusPageForAdmin(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string },
): Promise<StatusPageTree> {
  if (!Uuid.safeParse(input.pageId).success) throw new AppError("NOT_FOUND", "Status page not found.");
  const page = await findOrgStatusPage(deps.prisma, { organizationId: ctx.organizationId, pageId: input.pageId });
  if (!page) throw new AppError("NOT_FOUND", "Status page not found.");
  return page;
}

export async function createStatusPage(deps: ServiceDeps, ctx: ServiceContext, raw: unknown): Promise<{ id: string }> {
  requireRole(ctx, "admin");
  const input = PageInput.parse(raw);
  try {
    const created = await insertStatusPage(deps.prisma, { ...input, organizationId: ctx.organizationId });
    invalidateStatusSnapshots();
    return created;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", "That slug is taken.", { details: { field: "slug" } });
    }
    throw error;
  }
}

export async function editStatusPage(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string; fields: unknown },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.pageId, "Status page");
  const fields = PageInput.parse(input.fields);
  try {
    const ok = await updateStatusPage(deps.prisma, {
      organizationId: ctx.organizationId,
      pageId: input.pageId,
      fields,
    });
    if (!ok) throw new AppError("NOT_FOUND", "Status page not found.");
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", "That slug is taken.", { details: { field: "slug" } });
    throw error;
  }
  invalidateStatusSnapshots();
}

export async function removeStatusPage(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.pageId, "Status page");
  if (!(await deleteStatusPage(deps.prisma, { organizationId: ctx.organizationId, pageId: input.pageId }))) {
    throw new AppError("NOT_FOUND", "Status page not found.");
  }
  invalidateStatusSnapshots();
}

const DomainInput = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .refine(
    (d) => d === "" || /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(d),
    "A host name like status.example.org.",
  );

/** The TXT record a domain owner publishes to prove the domain maps to this page. */
export function domainVerificationRecord(domain: string): string {
  return `_rpcpulse-verify.${domain}`;
}

/**
 * Ask for a custom domain (or clear it with ""). This reserves nothing: the page serves the domain
 * only once verified, and any page may ask for a domain another one asked for or serves; the one
 * whose TXT record is verified last serves it (verifyCustomDomain). A fresh token each time, and a
 * changed domain is unverified.
 */
export async function setCustomDomain(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string; domain: string },
): Promise<{ domain: string | null; verifyToken: string | null }> {
  requireRole(ctx, "admin");
  requireUuid(input.pageId, "Status page");
  const domain = DomainInput.parse(input.domain) || null;
  const verifyToken = domain ? `rpcpulse-verify=${randomBytes(16).toString("hex")}` : null;
  const ok = await setStatusPageDomain(deps.prisma, {
    organizationId: ctx.organizationId,
    pageId: input.pageId,
    domain,
    verifyToken,
  });
  if (!ok) throw new AppError("NOT_FOUND", "Status page not found.");
  invalidateStatusSnapshots();
  return { domain, verifyToken };
}

/**
 * Look the TXT record up; a domain is served only once it is verified. Verified, the page serves the
 * domain and a page that served it before (another organization's too) stops: the current DNS
 * proof counts.
 */
export async function verifyCustomDomain(
  deps: ServiceDeps & { lookupTxt?: (name: string) => Promise<string[][]> },
  ctx: ServiceContext,
  input: { pageId: string; now?: Date },
): Promise<{ verified: boolean }> {
  requireRole(ctx, "admin");
  const page = await getStatusPageForAdmin(deps, ctx, input);
  if (!page.customDomain || !page.domainVerifyToken) throw new AppError("VALIDATION", "Set a custom domain first.");
  const lookup = deps.lookupTxt ?? resolveTxt;
  let records: string[][] = [];
  try {
    records = await lookup(domainVerificationRecord(page.customDomain));
  } catch {
    return { verified: false };
  }
  const found = records.some((chunks) => chunks.join("") === page.domainVerifyToken);
  if (!found) return { verified: false };
  try {
    const ok = await markStatusPageDomainVerified(deps.prisma, {
      organizationId: ctx.organizationId,
      pageId: input.pageId,
      domain: page.customDomain,
      at: input.now ?? new Date(),
    });
    // The domain was changed or removed while its record was looked up: nothing verified.
    if (!ok) return { verified: false };
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("CONFLICT", "The domain is being verified for another page right now; try again.");
    throw error;
  } finally {
    invalidateStatusSnapshots();
  }
  return { verified: true };
}

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const GroupName = z.string().trim().min(1, "A name is needed.").max(80, "At most 80 characters.");
const GroupPosition = z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10_000).optional());

/** Without a position the group goes last. */
const GroupInput = z.object({ name: GroupName, position: GroupPosition });

/** Rename and/or move one place up or down (which renumbers the page's groups 0..n-1). */
export const GroupEdit = z
  .object({
    name: GroupName.optional(),
    move: z.preprocess(emptyToUndefined, z.enum(["up", "down"], "Move up or down.").optional()),
  })
  .refine((v) => v.name !== undefined || v.move !== undefined, {
    message: "Give a new name or a move (up or down).",
    path: ["name"],
  });
export type GroupEdit = z.input<typeof GroupEdit>;

export async function addStatusGroup(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string; fields: unknown },
): Promise<{ id: string }> {
  requireRole(ctx, "admin");
  const fields = GroupInput.parse(input.fields);
  requireUuid(input.pageId, "Status page");
  const created = await insertStatusGroup(deps.prisma, {
    organizationId: ctx.organizationId,
    pageId: input.pageId,
    ...fields,
  });
  if (!created) throw new AppError("NOT_FOUND", "Status page not found.");
  invalidateStatusSnapshots();
  return created;
}

/** Edit a group in place; a move swaps it with its neighbour atomically (see moveStatusGroup). */
export async function editStatusGroup(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { groupId: string; fields: unknown },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.groupId, "Group");
  const { name, move } = parseFields(GroupEdit, input.fields);
  const scope = { organizationId: ctx.organizationId, groupId: input.groupId };
  if (name !== undefined && !(await renameStatusGroup(deps.prisma, { ...scope, name }))) {
    throw new AppError("NOT_FOUND", "Group not found.");
  }
  if (move && !(await moveStatusGroup(deps.prisma, { ...scope, direction: move }))) {
    throw new AppError("NOT_FOUND", "Group not found.");
  }
  invalidateStatusSnapshots();
}

export async function removeStatusGroup(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { groupId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.groupId, "Group");
  if (!(await deleteStatusGroup(deps.prisma, { organizationId: ctx.organizationId, groupId: input.groupId }))) {
    throw new AppError("NOT_FOUND", "Group not found.");
  }
  invalidateStatusSnapshots();
}

const emptyToNull = (v: unknown) => (v === "" || v === undefined ? null : v);

export const ComponentInput = z.object({
  /** "node:<uuid>", "endpoint:<uuid>", "producer:<uuid>" or "consensus_client:<node uuid>". */
  ref: z
    .string()
    .regex(
      /^(node|endpoint|producer|consensus_client):[0-9a-f-]{36}$/i,
      "Pick a node, an endpoint, a producer or a consensus client.",
    ),
  displayName: z.string().trim().max(120).default(""),
  description: z.string().trim().max(500).default(""),
  groupId: z.preprocess(emptyToNull, z.string().uuid().nullable()).default(null),
  position: z.coerce.number().int().min(0).max(10_000).default(0),
});

type ComponentKind = "node" | "endpoint" | "producer" | "consensus_client";
/** Producers are raw-SQL rows (no Prisma model): their look-ups need the pool. */
type ComponentDeps = ServiceDeps & { sql?: SqlClient };

const NOT_FOUND_TEXT: Record<ComponentKind, string> = {
  node: "Node not found.",
  endpoint: "Endpoint not found.",
  producer: "Producer not found.",
  consensus_client: "Node not found.",
};

/** A producer (witness or validator) the organization registered, named "<account> (<kind>)". */
async function findOrgProducerName(deps: ComponentDeps, organizationId: string, producerId: string) {
  if (!deps.sql) throw new AppError("INTERNAL", "Producer components need the SQL pool.");
  const [p] = await listProducerStatuses(deps.sql, { organizationIds: [organizationId], ids: [producerId] });
  return p ? { id: p.id, name: `${p.account} (${p.kind})` } : null;
}

/**
 * List a node, a producer or an Ethereum node's consensus client of the organization, or any listed public
 * directory endpoint (community pages). Another organization's node or producer is NOT_FOUND, like one
 * that does not exist.
 */
export async function addStatusComponent(
  deps: ComponentDeps,
  ctx: ServiceContext,
  input: { pageId: string; fields: unknown },
): Promise<{ id: string }> {
  requireRole(ctx, "admin");
  const fields = ComponentInput.parse(input.fields);
  requireUuid(input.pageId, "Status page");
  const [kind, refId] = fields.ref.toLowerCase().split(":") as [ComponentKind, string];
  const target =
    kind === "node"
      ? await findOrgNodeName(deps.prisma, { organizationId: ctx.organizationId, nodeId: refId })
      : kind === "endpoint"
        ? await findListableEndpoint(deps.prisma, refId)
        : kind === "consensus_client"
          ? await findOrgConsensusNode(deps.prisma, { organizationId: ctx.organizationId, nodeId: refId })
          : await findOrgProducerName(deps, ctx.organizationId, refId);
  if (!target) throw new AppError("NOT_FOUND", NOT_FOUND_TEXT[kind]);
  try {
    const created = await insertStatusComponent(deps.prisma, {
      organizationId: ctx.organizationId,
      pageId: input.pageId,
      groupId: fields.groupId,
      kind,
      refId,
      displayName: fields.displayName || target.name,
      description: fields.description,
      position: fields.position,
    });
    if (!created) throw new AppError("NOT_FOUND", "Status page or group not found.");
    invalidateStatusSnapshots();
    return created;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("CONFLICT", "The page already lists it.", { details: { field: "ref" } });
    throw error;
  }
}

const ComponentEdit = ComponentInput.omit({ ref: true }).extend({
  displayName: z.string().trim().min(1, "A name is needed.").max(120),
});

export async function editStatusComponent(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { componentId: string; fields: unknown },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.componentId, "Component");
  const fields = ComponentEdit.parse(input.fields);
  const ok = await updateStatusComponent(deps.prisma, {
    organizationId: ctx.organizationId,
    componentId: input.componentId,
    ...fields,
  });
  if (!ok) throw new AppError("NOT_FOUND", "Component or group not found.");
  invalidateStatusSnapshots();
}

export async function removeStatusComponent(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { componentId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.componentId, "Component");
  if (
    !(await deleteStatusComponent(deps.prisma, { organizationId: ctx.organizationId, componentId: input.componentId }))
  ) {
    throw new AppError("NOT_FOUND", "Component not found.");
  }
  invalidateStatusSnapshots();
}

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
