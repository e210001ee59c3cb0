import { AppError } from "@rpcpulse/config";
import { insertManualIncident } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { type StatusNotifyDeps } from "../notify-subscribers.js";
import { renderMarkdown } from "../render-markdown.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { IncidentInput, notifySafely, pageComponentIds } from "./incident-input.js";

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
