import { listProducerViews, listValidatorViews, registerProducer } from "@rpcpulse/services/producers";
import { z } from "zod";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

/**
 * GET /api/orgs/:orgId/producers (any member): witness accounts (`producers`) and validator stashes
 * (`validators`) with their latest reading, misses / offline reports and a 24 h history.
 */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const sql = getRuntime().reads.sql;
  const [producers, validators] = await Promise.all([
    listProducerViews({ sql }, ctx),
    listValidatorViews({ sql }, ctx),
  ]);
  return { body: { producers, validators } };
});

/**
 * POST /api/orgs/:orgId/producers {network, account} (admin): register a witness account (hive, steem)
 * or a validator stash (polkadot, kusama: account = the SS58 stash address).
 */
export const POST = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const body = await readJsonBody(request, z.record(z.string(), z.unknown()));
  return { status: 201, body: await registerProducer({ sql: getRuntime().sql }, ctx, body) };
});
