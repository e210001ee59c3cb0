import { listPageMaintenance } from "@rpcpulse/db/status";
import { type ServiceContext, type ServiceDeps } from "../../context.js";
import { pageComponentIds } from "./incident-input.js";

export async function listMaintenance(deps: ServiceDeps, ctx: ServiceContext, input: { pageId: string; now?: Date }) {
  await pageComponentIds(deps, ctx, input.pageId);
  const now = input.now ?? new Date();
  return listPageMaintenance(deps.prisma, {
    pageId: input.pageId,
    endsAfter: new Date(now.getTime() - 7 * 86_400_000),
  });
}
