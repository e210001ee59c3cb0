import { listPageSubscribers } from "@rpcpulse/db/status";
import { type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";

export async function listSubscribers(deps: ServiceDeps, ctx: ServiceContext, input: { pageId: string }) {
  requireUuid(input.pageId, "Status page");
  return listPageSubscribers(deps.prisma, { organizationId: ctx.organizationId, pageId: input.pageId });
}
