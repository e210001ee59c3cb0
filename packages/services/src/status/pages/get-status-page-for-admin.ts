import { AppError } from "@rpcpulse/config";
import { findOrgStatusPage, type StatusPageTree } from "@rpcpulse/db/status";
import { type ServiceContext, type ServiceDeps } from "../../context.js";
import { Uuid } from "./status-page-input.js";

export async function getStatusPageForAdmin(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string },
): Promise<StatusPageTree> {
  if (!Uuid.safeParse(input.pageId).success) throw new AppError("NOT_FOUND", "Status page not found.");
  const page = await findOrgStatusPage(deps.prisma, { organizationId: ctx.organizationId, pageId: input.pageId });
  if (!page) throw new AppError("NOT_FOUND", "Status page not found.");
  return page;
}
