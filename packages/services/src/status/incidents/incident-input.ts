import { AppError } from "@rpcpulse/config";
import { findOrgStatusPage } from "@rpcpulse/db/status";
import { z } from "zod";
import { type ServiceContext, type ServiceDeps } from "../../context.js";
import { notifyStatusSubscribers, type IncidentEvent, type StatusNotifyDeps } from "../notify-subscribers.js";
import { requireUuid } from "../../ids.js";

export const Status = z.enum(["investigating", "identified", "monitoring", "resolved"]);

export const Impact = z.enum(["none", "minor", "major", "critical"]);

export const Ids = z
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

export async function pageComponentIds(deps: ServiceDeps, ctx: ServiceContext, pageId: string): Promise<Set<string>> {
  requireUuid(pageId, "Status page");
  const page = await findOrgStatusPage(deps.prisma, { organizationId: ctx.organizationId, pageId });
  if (!page) throw new AppError("NOT_FOUND", "Status page not found.");
  return new Set(page.components.map((c) => c.id));
}

export async function notifySafely(
  deps: Partial<StatusNotifyDeps> & ServiceDeps,
  input: { organizationId: string; incidentId: string; event: IncidentEvent },
): Promise<void> {
  if (!deps.queue || !deps.secretsKey || !deps.appBaseUrl) return;
  await notifyStatusSubscribers(deps as StatusNotifyDeps, input);
}

export const IncidentUpdateInput = z.object({
  status: Status,
  body: z.string().trim().min(1, "Write an update.").max(10_000),
  title: z.string().trim().max(200).optional(),
  impact: Impact.optional(),
});
