import { revokeApiKey } from "@rpcpulse/services/orgs";
import { requireApiOrgContext, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

/** DELETE /api/orgs/:orgId/api-keys/:keyId (admin, signed in): revoke; the key is refused from its next request. */
export const DELETE = withRoute<{ orgId: string; keyId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId, { sessionOnly: true });
  return { body: { apiKey: await revokeApiKey({ sql: getRuntime().sql }, ctx, { keyId: params.keyId }) } };
});
