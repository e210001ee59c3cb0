import { AppError } from "@rpcpulse/config";
import { updateIncidentFields } from "@rpcpulse/db/status";
import { z } from "zod";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { Impact } from "./incident-input.js";

export async function updateIncident(
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
