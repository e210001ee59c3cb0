import { AppError } from "@rpcpulse/config";
import {
  countOrganizationChannels,
  deleteAlertRuleRow,
  insertAlertRule,
  publicEndpointExists,
  setAlertRuleEnabledRow,
  updateAlertRuleRow,
  type AlertRuleFields,
  type AlertRuleRow,
} from "@rpcpulse/db/alerting";
import { findOrganizationNodeRow } from "@rpcpulse/db/fleet";
import { z } from "zod";
import { requireRole, type ServiceContext, type ServiceDeps } from "../context.js";
import { ALERT_RULE_TYPES, normaliseRuleParams, RULE_TYPES } from "./rule-params.js";

const Uuid = z.string().uuid();

/** Ids that cannot exist (not a UUID) are NOT_FOUND too, never a database error. */
function requireId(id: string): string {
  if (!Uuid.safeParse(id).success) throw new AppError("NOT_FOUND", "Alert rule not found.");
  return id;
}

const optionalNumber = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  z.coerce.number().finite().optional(),
);
/** "" or null = explicitly none (no degraded tier); absent = the type's default. */
const nullableNumber = z.preprocess(
  (v) => (v === "" || v === null ? null : v === undefined ? undefined : Number(v)),
  z.number().finite().nullable().optional(),
);
const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.boolean());

/** A rule as the form (or an API) sends it. Thresholds are validated per type afterwards. */
export const AlertRuleInput = z.object({
  name: z.string().trim().min(1, "Give the rule a name.").max(100),
  type: z.enum(ALERT_RULE_TYPES),
  /** "org" (every node of the organization), "node:<uuid>" or "endpoint:<uuid>". */
  target: z
    .string()
    .trim()
    .regex(/^(org|node:[0-9a-f-]{36}|endpoint:[0-9a-f-]{36})$/i, "Pick a target."),
  threshold: optionalNumber,
  degraded: nullableNumber,
  resolveBelow: nullableNumber,
  windowMinutes: optionalNumber,
  forSeconds: z.coerce.number().int().min(0).max(86_400).default(120),
  resolveForSeconds: z.coerce.number().int().min(0).max(86_400).default(120),
  renotifyMinutes: z.coerce.number().int().min(0).max(10_080).default(0),
  notifyResolved: checkbox.default(true),
  openIncidents: checkbox.default(true),
  enabled: checkbox.default(true),
  channelIds: z.array(z.string().uuid("Unknown channel.")).max(20).default([]),
});
export type AlertRuleInput = z.input<typeof AlertRuleInput>;

function fieldError(field: string, message: string): never {
  throw new AppError("VALIDATION", message, { details: { field } });
}

async function toFields(deps: ServiceDeps, ctx: ServiceContext, raw: unknown): Promise<AlertRuleFields> {
  const parsed = AlertRuleInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fieldError(String(issue?.path[0] ?? "name"), issue?.message ?? "Invalid rule.");
  }
  const input = parsed.data;
  const info = RULE_TYPES[input.type];
  const [kind, id] = input.target.split(":") as ["org" | "node" | "endpoint", string | undefined];
  if (info.targets === "producer" && kind !== "org")
    fieldError(
      "target",
      `${info.label} applies to the organization's witnesses and validators: pick "every producer".`,
    );
  if (kind === "endpoint" && info.targets === "node") fieldError("target", `${info.label} applies to nodes only.`);
  if (kind !== "endpoint" && info.targets === "endpoint")
    fieldError("target", `${info.label} applies to public endpoints only.`);
  if (kind === "node") {
    const node = await findOrganizationNodeRow(deps.prisma, { organizationId: ctx.organizationId, nodeId: id ?? "" });
    if (!node) fieldError("target", "That node is not in this organization.");
  }
  if (kind === "endpoint") {
    if (!(await publicEndpointExists(deps.prisma, id ?? "")))
      fieldError("target", "That endpoint is not in the directory.");
  }
  const channelIds = [...new Set(input.channelIds)];
  if (
    (await countOrganizationChannels(deps.prisma, { organizationId: ctx.organizationId, channelIds })) !==
    channelIds.length
  ) {
    fieldError("channelIds", "One of the channels is not in this organization.");
  }
  const params = normaliseRuleParams(input.type, {
    threshold: input.threshold,
    degraded: input.degraded,
    resolveBelow: input.resolveBelow,
    windowMinutes: input.windowMinutes,
  });
  return {
    name: input.name,
    type: input.type,
    targetKind: kind === "org" ? (info.targets === "producer" ? "org_producers" : "org_nodes") : kind,
    nodeId: kind === "node" ? (id ?? null) : null,
    endpointId: kind === "endpoint" ? (id ?? null) : null,
    params,
    forSeconds: input.forSeconds,
    resolveForSeconds: input.resolveForSeconds,
    renotifyMinutes: input.renotifyMinutes,
    notifyResolved: input.notifyResolved,
    openIncidents: input.openIncidents,
    enabled: input.enabled,
    channelIds,
  };
}

/** Create a rule (admins and owners). */
export async function createAlertRule(deps: ServiceDeps, ctx: ServiceContext, raw: unknown): Promise<AlertRuleRow> {
  requireRole(ctx, "admin");
  const fields = await toFields(deps, ctx, raw);
  return insertAlertRule(deps.prisma, { organizationId: ctx.organizationId, ...fields });
}

/** Replace a rule's settings (admins and owners); NOT_FOUND for other organizations' rules. */
export async function updateAlertRule(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { ruleId: string; fields: unknown },
): Promise<AlertRuleRow> {
  requireRole(ctx, "admin");
  requireId(input.ruleId);
  const fields = await toFields(deps, ctx, input.fields);
  const row = await updateAlertRuleRow(deps.prisma, {
    organizationId: ctx.organizationId,
    ruleId: input.ruleId,
    ...fields,
  });
  if (!row) throw new AppError("NOT_FOUND", "Alert rule not found.");
  return row;
}

export async function setAlertRuleEnabled(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { ruleId: string; enabled: boolean },
): Promise<void> {
  requireRole(ctx, "admin");
  requireId(input.ruleId);
  if (!(await setAlertRuleEnabledRow(deps.prisma, { organizationId: ctx.organizationId, ...input }))) {
    throw new AppError("NOT_FOUND", "Alert rule not found.");
  }
}

export async function deleteAlertRule(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { ruleId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  if (
    !(await deleteAlertRuleRow(deps.prisma, { organizationId: ctx.organizationId, ruleId: requireId(input.ruleId) }))
  ) {
    throw new AppError("NOT_FOUND", "Alert rule not found.");
  }
}
