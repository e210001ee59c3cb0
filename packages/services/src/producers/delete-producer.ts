import { AppError } from "@rpcpulse/config";
import { deleteProducer as deleteProducerRow } from "@rpcpulse/db/producers";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../context.js";
import type { ProducerDeps } from "./producer-view.js";

export async function deleteProducer(deps: ProducerDeps, ctx: ServiceContext, input: { id: string }): Promise<void> {
  requireRole(ctx, "admin");
  const id = z.string().uuid().safeParse(input.id);
  if (!id.success || !(await deleteProducerRow(deps.sql, { organizationId: ctx.organizationId, id: id.data }))) {
    throw new AppError("NOT_FOUND", "Producer not found.");
  }
}
