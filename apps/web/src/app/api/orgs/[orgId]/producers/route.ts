import { listProducerViews, registerProducer } from "@rpcpulse/services";
import { z } from "zod";
import { readJsonBody, requireApiOrgContext, withRoute } from "../../../../../server/http.js";
import { getRuntime } from "../../../../../server/runtime.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/producers: witness accounts with their latest reading, misses and 24 h history (any member). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  return { body: { producers: await listProducerViews({ sql: getRuntime().reads.sql }, ctx) } };
});

/** POST /api/orgs/:orgId/producers {network:"hive"|"steem", account} (admin): register a witness account. */
export const POST = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const body = await readJsonBody(request, z.record(z.string(), z.unknown()));
  return { status: 201, body: await registerProducer({ sql: getRuntime().sql }, ctx, body) };
});
