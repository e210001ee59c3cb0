import { AppError } from "@rpcpulse/config";
import { deletePageSubscriber } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";

export async function deleteSubscriber(deps: ServiceDeps, ctx: ServiceContext, input: { subscriberId: string }) {
  requireRole(ctx, "admin");
  requireUuid(input.subscriberId, "Subscriber");
  if (
    !(await deletePageSubscriber(deps.prisma, { organizationId: ctx.organizationId, subscriberId: input.subscriberId }))
  ) {
    throw new AppError("NOT_FOUND", "Subscriber not found.");
  }
}
