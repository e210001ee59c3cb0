import { listApiKeyRows } from "@rpcpulse/db/orgs";
import { type ServiceContext } from "../context.js";
import { presentApiKey, requireSessionAdmin, type ApiKeyDeps, type ApiKeyView } from "./api-key-view.js";

export async function listApiKeys(
  deps: ApiKeyDeps,
  ctx: ServiceContext,
  now: Date = new Date(),
): Promise<ApiKeyView[]> {
  requireSessionAdmin(ctx);
  return (await listApiKeyRows(deps.sql, { organizationId: ctx.organizationId })).map((r) => presentApiKey(r, now));
}
