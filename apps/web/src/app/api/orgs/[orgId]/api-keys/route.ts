import { createApiKey, listApiKeys } from "@rpcpulse/services/orgs";
import { z } from "zod";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/api-keys: key metadata (admin; signed in, never with an API key). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId, { sessionOnly: true });
  return { body: { apiKeys: await listApiKeys({ sql: getRuntime().sql }, ctx) } };
});

/** POST /api/orgs/:orgId/api-keys {name,scope:"read"|"write",expiresInDays?:1..365|null} (admin, signed in): the key is in this response only. */
export const POST = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId, { sessionOnly: true });
  const body = await readJsonBody(request, z.record(z.string(), z.unknown()));
  return { status: 201, body: await createApiKey({ sql: getRuntime().sql }, ctx, body) };
});
