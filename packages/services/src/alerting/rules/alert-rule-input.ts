import { AppError } from "@rpcpulse/config";
import { countOrganizationChannels, publicEndpointExists, type AlertRuleFields } from "@rpcpulse/db/alerting";
import { findOrganizationNodeRow } from "@rpcpulse/db/fleet";
import { z } from "zod";
import type { ServiceContext, ServiceDeps } from "../../context.js";
import { ALERT_RULE_TYPES, normaliseRuleParams, RULE_TYPES } from "../rule-params.js";

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

/** A rule's input as its row's fields: the target and channels checked against the organization. */
export async function toAlertRuleFields(
  deps: ServiceDeps,
  ctx: ServiceContext,
  raw: unknown,
): Promise<AlertRuleFields> {
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
