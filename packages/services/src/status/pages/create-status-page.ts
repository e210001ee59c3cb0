import { AppError } from "@rpcpulse/config";
import { insertStatusPage } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { PageInput, isUniqueViolation } from "./status-page-input.js";

export async function createStatusPage(deps: ServiceDeps, ctx: ServiceContext, raw: unknown): Promise<{ id: string }> {
  requireRole(ctx, "admin");
  const input = PageInput.parse(raw);
  try {
    const created = await insertStatusPage(deps.prisma, { ...input, organizationId: ctx.organizationId });
    invalidateStatusSnapshots();
    return created;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", "That slug is taken.", { details: { field: "slug" } });
    }
    throw error;
  }
}
