import { AppError } from "@rpcpulse/config";
import {
  appendIncidentUpdate,
  findMaintenanceCoveringRef,
  findOpenIncidentByAlertKey,
  findStatusComponentsByRef,
  insertAutoIncidentOnce,
} from "@rpcpulse/db/status";
import { type PrismaClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import { renderMarkdown } from "./render-markdown.js";
import { notifyStatusSubscribers, type IncidentEvent, type StatusNotifyDeps } from "./notify-subscribers.js";
import { invalidateStatusSnapshots } from "./snapshot-cache.js";

/** `{ prisma }` is enough; with queue, secretsKey and appBaseUrl the page's subscribers hear too. */
export type AutoIncidentDeps = { prisma: PrismaClient } & Partial<Omit<StatusNotifyDeps, "prisma">>;

async function notifyIfWired(
  deps: AutoIncidentDeps,
  input: { organizationId: string; incidentId: string; event: IncidentEvent },
): Promise<void> {
  if (!deps.queue || !deps.secretsKey || !deps.appBaseUrl) return;
  await notifyStatusSubscribers(deps as StatusNotifyDeps, input);
}

/**
 * What the alerting engine calls. Auto incidents exist only for nodes/endpoints listed on a status
 * page of the alert's organization; one unresolved incident per (organization, alertKey).
 */

const Uuid = z.string().uuid();
const Impact = z.enum(["none", "minor", "major", "critical"]);

export const OpenAutoIncidentInput = z.object({
  organizationId: z.string().min(1).max(64),
  /** Node id or public endpoint id the alert is about. */
  componentRef: Uuid,
  /** The alert's dedup key; stable for the alert's lifetime. */
  alertKey: z.string().min(1).max(200),
  title: z.string().min(1).max(200),
  /** Markdown, e.g. "14 blocks behind for 6 minutes". */
  body: z.string().max(10_000),
  impact: Impact.default("minor"),
  at: z.date().optional(),
});
export type OpenAutoIncidentInput = z.input<typeof OpenAutoIncidentInput>;

export type OpenAutoIncidentResult =
  | { incidentId: string; created: boolean; componentIds: string[] }
  | { incidentId: null; created: false; reason: "not-on-a-status-page" };

/** Components of the organization's pages that list a node or endpoint (empty = no page lists it). */
export async function listStatusComponentsForRef(
  deps: { prisma: PrismaClient },
  input: { organizationId: string; componentRef: string },
): Promise<{ id: string; pageId: string; displayName: string }[]> {
  if (!Uuid.safeParse(input.componentRef).success) return [];
  return findStatusComponentsByRef(deps.prisma, input);
}

/** Idempotent: a second call with the same alertKey while the incident is open returns it. */
export async function openAutoIncident(
  deps: AutoIncidentDeps,
  raw: OpenAutoIncidentInput,
): Promise<OpenAutoIncidentResult> {
  const input = OpenAutoIncidentInput.parse(raw);
  const components = await findStatusComponentsByRef(deps.prisma, input);
  if (components.length === 0) return { incidentId: null, created: false, reason: "not-on-a-status-page" };
  const result = await insertAutoIncidentOnce(deps.prisma, {
    organizationId: input.organizationId,
    alertKey: input.alertKey,
    componentRef: input.componentRef,
    componentIds: components.map((c) => c.id),
    title: input.title,
    impact: input.impact,
    body: input.body,
    bodyHtml: renderMarkdown(input.body),
    at: input.at ?? new Date(),
  });
  if (result.created) {
    invalidateStatusSnapshots();
    await notifyIfWired(deps, {
      organizationId: input.organizationId,
      incidentId: result.incidentId,
      event: "incident.created",
    });
  }
  return { ...result, componentIds: components.map((c) => c.id) };
}

export const UpdateAutoIncidentInput = z.object({
  organizationId: z.string().min(1).max(64).optional(),
  alertKey: z.string().min(1).max(200),
  body: z.string().min(1).max(10_000),
  status: z.enum(["investigating", "identified", "monitoring"]).default("investigating"),
  title: z.string().min(1).max(200).optional(),
  impact: Impact.optional(),
  at: z.date().optional(),
});
export type UpdateAutoIncidentInput = z.input<typeof UpdateAutoIncidentInput>;

/** Post an update on the open incident of an alert (e.g. re-notify with new figures). */
export async function updateAutoIncident(
  deps: AutoIncidentDeps,
  raw: UpdateAutoIncidentInput,
): Promise<{ incidentId: string | null }> {
  const input = UpdateAutoIncidentInput.parse(raw);
  const open = await findOpenIncidentByAlertKey(deps.prisma, input);
  if (!open) return { incidentId: null };
  await appendIncidentUpdate(deps.prisma, {
    incidentId: open.id,
    status: input.status,
    body: input.body,
    bodyHtml: renderMarkdown(input.body),
    authorId: null,
    at: input.at ?? new Date(),
    ...(input.title ? { title: input.title } : {}),
    ...(input.impact ? { impact: input.impact } : {}),
  });
  invalidateStatusSnapshots();
  await notifyIfWired(deps, { organizationId: open.organizationId, incidentId: open.id, event: "incident.updated" });
  return { incidentId: open.id };
}

export const ResolveAutoIncidentInput = z.object({
  organizationId: z.string().min(1).max(64).optional(),
  alertKey: z.string().min(1).max(200),
  body: z.string().max(10_000).default("Resolved: the alert recovered."),
  at: z.date().optional(),
});
export type ResolveAutoIncidentInput = z.input<typeof ResolveAutoIncidentInput>;

/** Resolve the open incident of an alert; a no-op (incidentId null) when none is open. */
export async function resolveAutoIncident(
  deps: AutoIncidentDeps,
  raw: ResolveAutoIncidentInput,
): Promise<{ incidentId: string | null }> {
  const input = ResolveAutoIncidentInput.parse(raw);
  const open = await findOpenIncidentByAlertKey(deps.prisma, input);
  if (!open) return { incidentId: null };
  await appendIncidentUpdate(deps.prisma, {
    incidentId: open.id,
    status: "resolved",
    body: input.body,
    bodyHtml: renderMarkdown(input.body),
    authorId: null,
    at: input.at ?? new Date(),
  });
  invalidateStatusSnapshots();
  await notifyIfWired(deps, { organizationId: open.organizationId, incidentId: open.id, event: "incident.resolved" });
  return { incidentId: open.id };
}

export const IsInMaintenanceInput = z
  .object({
    componentRef: Uuid.optional(),
    nodeId: Uuid.optional(),
    endpointId: Uuid.optional(),
    /** When given, only this organization's windows count. */
    organizationId: z.string().min(1).max(64).optional(),
    at: z.date().optional(),
  })
  .refine((v) => Boolean(v.componentRef ?? v.nodeId ?? v.endpointId), "componentRef, nodeId or endpointId");
export type IsInMaintenanceInput = z.input<typeof IsInMaintenanceInput>;

/** True when a maintenance window covering `at` (default now) lists a component with this ref. */
export async function isInMaintenance(deps: { prisma: PrismaClient }, raw: IsInMaintenanceInput): Promise<boolean> {
  const parsed = IsInMaintenanceInput.safeParse(raw);
  if (!parsed.success) throw new AppError("VALIDATION", "isInMaintenance needs a node or endpoint id.");
  const input = parsed.data;
  const windows = await findMaintenanceCoveringRef(deps.prisma, {
    componentRef: (input.componentRef ?? input.nodeId ?? input.endpointId) as string,
    at: input.at ?? new Date(),
    ...(input.organizationId ? { organizationId: input.organizationId } : {}),
  });
  return windows.length > 0;
}
