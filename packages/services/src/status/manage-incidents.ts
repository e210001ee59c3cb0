import { AppError } from "@rpcpulse/config";
import {
  appendIncidentUpdate,
  deleteIncident,
  deleteMaintenanceWindow,
  deletePageSubscriber,
  findOrgMaintenanceWindow,
  findOrgIncident,
  findOrgStatusPage,
  insertMaintenanceWindow,
  insertManualIncident,
  listOrgIncidents,
  listPageMaintenance,
  listPageSubscribers,
  updateIncidentFields,
  updateMaintenanceWindow,
} from "@rpcpulse/db";
import { z } from "zod";
import { requireRole, type ServiceContext, type ServiceDeps } from "../context.js";
import { notifyStatusSubscribers, type IncidentEvent, type StatusNotifyDeps } from "./notify-subscribers.js";
import { renderMarkdown } from "./render-markdown.js";
import { requireUuid } from "./ids.js";
import { parseFields } from "./parse-fields.js";
import { invalidateStatusSnapshots } from "./snapshot-cache.js";

const Status = z.enum(["investigating", "identified", "monitoring", "resolved"]);
const Impact = z.enum(["none", "minor", "major", "critical"]);
const Ids = z
  .union([z.string(), z.array(z.string())])
  .default([])
  .transform((v) => (Array.isArray(v) ? v : v ? [v] : []))
  .pipe(z.array(z.string().uuid()).max(500));

export const IncidentInput = z.object({
  title: z.string().trim().min(1, "A title is needed.").max(200),
  status: Status.default("investigating"),
  impact: Impact.default("minor"),
  body: z.string().trim().min(1, "Say what is happening.").max(10_000),
  componentIds: Ids,
});

async function pageComponentIds(deps: ServiceDeps, ctx: ServiceContext, pageId: string): Promise<Set<string>> {
  requireUuid(pageId, "Status page");
  const page = await findOrgStatusPage(deps.prisma, { organizationId: ctx.organizationId, pageId });
  if (!page) throw new AppError("NOT_FOUND", "Status page not found.");
  return new Set(page.components.map((c) => c.id));
}

async function notifySafely(
  deps: Partial<StatusNotifyDeps> & ServiceDeps,
  input: { organizationId: string; incidentId: string; event: IncidentEvent },
): Promise<void> {
  if (!deps.queue || !deps.secretsKey || !deps.appBaseUrl) return;
  await notifyStatusSubscribers(deps as StatusNotifyDeps, input);
}

export async function createIncident(
  deps: ServiceDeps & Partial<StatusNotifyDeps>,
  ctx: ServiceContext,
  input: { pageId: string; fields: unknown; now?: Date },
): Promise<{ id: string }> {
  requireRole(ctx, "admin");
  const fields = IncidentInput.parse(input.fields);
  const allowed = await pageComponentIds(deps, ctx, input.pageId);
  if (fields.componentIds.some((id) => !allowed.has(id))) {
    throw new AppError("VALIDATION", "Pick components of this page.", { details: { field: "componentIds" } });
  }
  const created = await insertManualIncident(deps.prisma, {
    organizationId: ctx.organizationId,
    pageId: input.pageId,
    title: fields.title,
    impact: fields.impact,
    status: fields.status,
    componentIds: fields.componentIds,
    body: fields.body,
    bodyHtml: renderMarkdown(fields.body),
    authorId: ctx.userId,
    at: input.now ?? new Date(),
  });
  invalidateStatusSnapshots();
  await notifySafely(deps, { organizationId: ctx.organizationId, incidentId: created.id, event: "incident.created" });
  return created;
}

export const IncidentUpdateInput = z.object({
  status: Status,
  body: z.string().trim().min(1, "Write an update.").max(10_000),
  title: z.string().trim().max(200).optional(),
  impact: Impact.optional(),
});

/** Post an update (manual and auto incidents alike); status "resolved" resolves it. */
export async function postIncidentUpdate(
  deps: ServiceDeps & Partial<StatusNotifyDeps>,
  ctx: ServiceContext,
  input: { incidentId: string; fields: unknown; now?: Date },
): Promise<void> {
  requireRole(ctx, "admin");
  const fields = IncidentUpdateInput.parse(input.fields);
  const incident = await getIncident(deps, ctx, input);
  await appendIncidentUpdate(deps.prisma, {
    incidentId: incident.id,
    status: fields.status,
    body: fields.body,
    bodyHtml: renderMarkdown(fields.body),
    authorId: ctx.userId,
    at: input.now ?? new Date(),
    ...(fields.title ? { title: fields.title } : {}),
    ...(fields.impact ? { impact: fields.impact } : {}),
  });
  invalidateStatusSnapshots();
  await notifySafely(deps, {
    organizationId: ctx.organizationId,
    incidentId: incident.id,
    event: fields.status === "resolved" ? "incident.resolved" : "incident.updated",
  });
}

export async function editIncident(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { incidentId: string; fields: unknown },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.incidentId, "Incident");
  const fields = z.object({ title: z.string().trim().min(1).max(200), impact: Impact }).parse(input.fields);
  if (
    !(await updateIncidentFields(deps.prisma, {
      organizationId: ctx.organizationId,
      incidentId: input.incidentId,
      ...fields,
    }))
  ) {
    throw new AppError("NOT_FOUND", "Incident not found.");
  }
  invalidateStatusSnapshots();
}

export async function removeIncident(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { incidentId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.incidentId, "Incident");
  if (!(await deleteIncident(deps.prisma, { organizationId: ctx.organizationId, incidentId: input.incidentId }))) {
    throw new AppError("NOT_FOUND", "Incident not found.");
  }
  invalidateStatusSnapshots();
}

export async function getIncident(deps: ServiceDeps, ctx: ServiceContext, input: { incidentId: string }) {
  if (!z.string().uuid().safeParse(input.incidentId).success) throw new AppError("NOT_FOUND", "Incident not found.");
  const incident = await findOrgIncident(deps.prisma, {
    organizationId: ctx.organizationId,
    incidentId: input.incidentId,
  });
  if (!incident) throw new AppError("NOT_FOUND", "Incident not found.");
  return incident;
}

export async function listIncidents(deps: ServiceDeps, ctx: ServiceContext) {
  return listOrgIncidents(deps.prisma, { organizationId: ctx.organizationId, limit: 200 });
}

export const MaintenanceInput = z
  .object({
    title: z.string().trim().min(1, "A title is needed.").max(200),
    body: z.string().trim().max(10_000).default(""),
    startsAt: z.coerce.date({ error: "A start time is needed." }),
    endsAt: z.coerce.date({ error: "An end time is needed." }),
    componentIds: Ids,
  })
  .refine((v) => v.endsAt > v.startsAt, { message: "The end must be after the start.", path: ["endsAt"] })
  .refine((v) => v.endsAt.getTime() - v.startsAt.getTime() <= 30 * 86_400_000, {
    message: "At most 30 days.",
    path: ["endsAt"],
  });

/** The stored fields of a window; the message is rendered with the sanitizing Markdown renderer. */
function maintenanceRow(fields: z.output<typeof MaintenanceInput>) {
  const { title, body, startsAt, endsAt, componentIds } = fields;
  return { title, body, bodyHtml: renderMarkdown(body), startsAt, endsAt, componentIds };
}

function requirePageComponents(allowed: Set<string>, componentIds: string[]): void {
  if (componentIds.length === 0 || componentIds.some((id) => !allowed.has(id))) {
    throw new AppError("VALIDATION", "Pick components of this page.", { details: { field: "componentIds" } });
  }
}

export async function scheduleMaintenance(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string; fields: unknown },
): Promise<{ id: string }> {
  requireRole(ctx, "admin");
  const fields = MaintenanceInput.parse(input.fields);
  requirePageComponents(await pageComponentIds(deps, ctx, input.pageId), fields.componentIds);
  const created = await insertMaintenanceWindow(deps.prisma, {
    organizationId: ctx.organizationId,
    pageId: input.pageId,
    ...maintenanceRow(fields),
  });
  invalidateStatusSnapshots();
  return created;
}

/**
 * Replace a window's title, message, times and components (same rules as scheduling; the
 * components must be on the window's page). Another organization's window is NOT_FOUND.
 */
export async function editMaintenance(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { windowId: string; fields: unknown },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.windowId, "Maintenance window");
  const fields = parseFields(MaintenanceInput, input.fields);
  const scope = { organizationId: ctx.organizationId, id: input.windowId };
  const window = await findOrgMaintenanceWindow(deps.prisma, scope);
  if (!window) throw new AppError("NOT_FOUND", "Maintenance window not found.");
  requirePageComponents(await pageComponentIds(deps, ctx, window.pageId), fields.componentIds);
  const ok = await updateMaintenanceWindow(deps.prisma, {
    ...scope,
    ...maintenanceRow(fields),
  });
  if (!ok) throw new AppError("NOT_FOUND", "Maintenance window not found.");
  invalidateStatusSnapshots();
}

export async function cancelMaintenance(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { windowId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.windowId, "Maintenance window");
  if (!(await deleteMaintenanceWindow(deps.prisma, { organizationId: ctx.organizationId, id: input.windowId }))) {
    throw new AppError("NOT_FOUND", "Maintenance window not found.");
  }
  invalidateStatusSnapshots();
}

export async function listMaintenance(deps: ServiceDeps, ctx: ServiceContext, input: { pageId: string; now?: Date }) {
  await pageComponentIds(deps, ctx, input.pageId);
  const now = input.now ?? new Date();
  return listPageMaintenance(deps.prisma, {
    pageId: input.pageId,
    endsAfter: new Date(now.getTime() - 7 * 86_400_000),
  });
}

export async function listSubscribers(deps: ServiceDeps, ctx: ServiceContext, input: { pageId: string }) {
  requireUuid(input.pageId, "Status page");
  return listPageSubscribers(deps.prisma, { organizationId: ctx.organizationId, pageId: input.pageId });
}

export async function removeSubscriber(deps: ServiceDeps, ctx: ServiceContext, input: { subscriberId: string }) {
  requireRole(ctx, "admin");
  requireUuid(input.subscriberId, "Subscriber");
  if (
    !(await deletePageSubscriber(deps.prisma, { organizationId: ctx.organizationId, subscriberId: input.subscriberId }))
  ) {
    throw new AppError("NOT_FOUND", "Subscriber not found.");
  }
}
