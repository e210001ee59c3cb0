import { appendIncidentUpdate } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { type StatusNotifyDeps } from "../notify-subscribers.js";
import { renderMarkdown } from "../render-markdown.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { IncidentUpdateInput, notifySafely } from "./incident-input.js";
import { getIncident } from "./get-incident.js";

/** Post an update (manual and auto incidents alike); status "resolved" resolves it. */
export async function createIncidentUpdate(
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
