import { type Prisma, type PrismaClient } from "../sql/client.js";
import type { SqlClient } from "../sql/sql-client.js";

/** Alert rules and their channel routing. Every org-scoped call names the organization. */

export type AlertRuleTypeValue =
  | "node_down"
  | "lag"
  | "head_age"
  | "endpoint_down"
  | "latency_p95"
  | "port_exhaustion"
  | "connection_flood"
  | "suggestion"
  | "finality_stalled"
  | "public_head_behind"
  | "witness_missed_block"
  | "witness_feed_stale"
  | "witness_key_changed"
  | "witness_version_behind"
  | "validator_left_active_set"
  | "validator_low_era_points"
  | "validator_offline_report"
  | "consensus_client_behind";
export type AlertTargetKindValue = "node" | "endpoint" | "org_nodes" | "org_producers";

export interface AlertRuleFields {
  name: string;
  type: AlertRuleTypeValue;
  targetKind: AlertTargetKindValue;
  nodeId: string | null;
  endpointId: string | null;
  params: Record<string, unknown>;
  forSeconds: number;
  resolveForSeconds: number;
  renotifyMinutes: number;
  notifyResolved: boolean;
  openIncidents: boolean;
  enabled: boolean;
  channelIds: string[];
}

export interface AlertRuleRow extends Omit<AlertRuleFields, "params"> {
  id: string;
  organizationId: string;
  params: unknown;
  targetName: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const RULE_INCLUDE = {
  channels: { select: { channelId: true } },
  node: { select: { name: true } },
  endpoint: { select: { name: true } },
} satisfies Prisma.AlertRuleInclude;

type RuleWithInclude = Prisma.AlertRuleGetPayload<{ include: typeof RULE_INCLUDE }>;

function toRow(r: RuleWithInclude): AlertRuleRow {
  return {
    id: r.id,
    organizationId: r.organizationId,
    name: r.name,
    type: r.type,
    targetKind: r.targetKind,
    nodeId: r.nodeId,
    endpointId: r.endpointId,
    params: r.params,
    forSeconds: r.forSeconds,
    resolveForSeconds: r.resolveForSeconds,
    renotifyMinutes: r.renotifyMinutes,
    notifyResolved: r.notifyResolved,
    openIncidents: r.openIncidents,
    enabled: r.enabled,
    channelIds: r.channels.map((c) => c.channelId),
    targetName: r.node?.name ?? r.endpoint?.name ?? null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export async function listOrganizationAlertRules(
  prisma: PrismaClient,
  organizationId: string,
): Promise<AlertRuleRow[]> {
  const rows = await prisma.alertRule.findMany({
    where: { organizationId },
    include: RULE_INCLUDE,
    orderBy: [{ name: "asc" }, { createdAt: "asc" }],
  });
  return rows.map(toRow);
}

export async function findOrganizationAlertRule(
  prisma: PrismaClient,
  input: { organizationId: string; ruleId: string },
): Promise<AlertRuleRow | null> {
  const row = await prisma.alertRule.findFirst({
    where: { id: input.ruleId, organizationId: input.organizationId },
    include: RULE_INCLUDE,
  });
  return row ? toRow(row) : null;
}

/** Rules that are switched on, of every organization or of the given ones (the evaluation job). */
export async function listEnabledAlertRules(
  prisma: PrismaClient,
  filter: { organizationIds?: readonly string[] } = {},
): Promise<AlertRuleRow[]> {
  const rows = await prisma.alertRule.findMany({
    where: {
      enabled: true,
      ...(filter.organizationIds ? { organizationId: { in: [...filter.organizationIds] } } : {}),
    },
    include: RULE_INCLUDE,
  });
  return rows.map(toRow);
}

function ruleData(fields: AlertRuleFields) {
  const { channelIds: _channels, params, ...rest } = fields;
  return { ...rest, params: params as Prisma.InputJsonValue };
}

export async function insertAlertRule(
  prisma: PrismaClient,
  input: { organizationId: string } & AlertRuleFields,
): Promise<AlertRuleRow> {
  const { organizationId, ...fields } = input;
  const row = await prisma.alertRule.create({
    data: {
      organizationId,
      ...ruleData(fields),
      channels: { create: fields.channelIds.map((channelId) => ({ channelId })) },
    },
    include: RULE_INCLUDE,
  });
  return toRow(row);
}

/** Replace a rule's settings and routing; null when the rule is not the organization's. */
export async function updateAlertRuleRow(
  prisma: PrismaClient,
  input: { organizationId: string; ruleId: string } & AlertRuleFields,
): Promise<AlertRuleRow | null> {
  const { organizationId, ruleId, ...fields } = input;
  return prisma.$transaction(async (tx) => {
    const owned = await tx.alertRule.findFirst({ where: { id: ruleId, organizationId }, select: { id: true } });
    if (!owned) return null;
    await tx.alertRuleChannel.deleteMany({ where: { ruleId } });
    const row = await tx.alertRule.update({
      where: { id: ruleId },
      data: { ...ruleData(fields), channels: { create: fields.channelIds.map((channelId) => ({ channelId })) } },
      include: RULE_INCLUDE,
    });
    // A changed rule starts from a clean state; the next evaluation rebuilds it.
    await tx.alertState.deleteMany({ where: { ruleId, status: { in: ["ok", "pending"] } } });
    return toRow(row);
  });
}

export async function setAlertRuleEnabledRow(
  prisma: PrismaClient,
  input: { organizationId: string; ruleId: string; enabled: boolean },
): Promise<boolean> {
  const result = await prisma.alertRule.updateMany({
    where: { id: input.ruleId, organizationId: input.organizationId },
    data: { enabled: input.enabled },
  });
  return result.count === 1;
}

export async function deleteAlertRuleRow(
  prisma: PrismaClient,
  input: { organizationId: string; ruleId: string },
): Promise<boolean> {
  const result = await prisma.alertRule.deleteMany({
    where: { id: input.ruleId, organizationId: input.organizationId },
  });
  return result.count === 1;
}

/** Node ids of each organization (rules targeting all nodes of an org); plain SQL, one query. */
export async function listNodeIdsByOrganization(
  sql: SqlClient,
  organizationIds: readonly string[],
): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (organizationIds.length === 0) return map;
  const { rows } = await sql.query("SELECT id, organization_id FROM nodes WHERE organization_id = ANY($1::text[])", [
    organizationIds,
  ]);
  for (const r of rows as { id: string; organization_id: string }[]) {
    const ids = map.get(r.organization_id);
    if (ids) ids.push(r.id);
    else map.set(r.organization_id, [r.id]);
  }
  return map;
}

/** Name and slug of organizations (notification text and links); plain SQL, one query. */
export async function listOrganizationNames(
  sql: SqlClient,
  organizationIds: readonly string[],
): Promise<Map<string, { name: string; slug: string }>> {
  if (organizationIds.length === 0) return new Map();
  const { rows } = await sql.query("SELECT id, name, slug FROM organizations WHERE id = ANY($1::text[])", [
    organizationIds,
  ]);
  return new Map(
    (rows as { id: string; name: string; slug: string }[]).map((r) => [r.id, { name: r.name, slug: r.slug }]),
  );
}

/** Whether a public endpoint with this id is in the directory (any organization may watch it). */
export async function publicEndpointExists(prisma: PrismaClient, endpointId: string): Promise<boolean> {
  return (await prisma.publicEndpoint.count({ where: { id: endpointId } })) === 1;
}

/** Nodes and directory endpoints a rule form can target. */
export async function listAlertTargetChoices(
  prisma: PrismaClient,
  organizationId: string,
): Promise<{
  nodes: Array<{ id: string; name: string }>;
  endpoints: Array<{ id: string; name: string; url: string }>;
}> {
  const [nodes, endpoints] = await Promise.all([
    prisma.node.findMany({ where: { organizationId }, select: { id: true, name: true }, orderBy: { name: "asc" } }),
    prisma.publicEndpoint.findMany({
      where: { status: { not: "dead" } },
      select: { id: true, name: true, url: true },
      orderBy: { name: "asc" },
      take: 500,
    }),
  ]);
  return { nodes, endpoints };
}
