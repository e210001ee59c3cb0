import { AppError } from "@rpcpulse/config";
import {
  findDirectoryEndpoint,
  getEndpointOperator,
  getEndpointCapabilities,
  listEndpointRankedRows,
} from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import { healthOf, isOperatorVerified, vantageOf } from "./present.js";
import type { EndpointDetailResponse } from "./schemas.js";

export const GetEndpointDetailInput = z.object({ endpointId: z.string().uuid() }).strict();

/** One endpoint: listing, latest capability check, and its rank/score in every window and region. */
export async function getEndpointDetail(
  deps: { sql: SqlClient; now?: () => Date },
  input: z.input<typeof GetEndpointDetailInput>,
): Promise<EndpointDetailResponse> {
  const parsed = GetEndpointDetailInput.safeParse(input);
  if (!parsed.success) throw new AppError("NOT_FOUND", "Endpoint not found.");
  const { endpointId } = parsed.data;
  const endpoint = await findDirectoryEndpoint(deps.sql, endpointId);
  if (!endpoint) throw new AppError("NOT_FOUND", "Endpoint not found.");
  const [caps, rows, operator] = await Promise.all([
    getEndpointCapabilities(deps.sql, [endpointId]),
    listEndpointRankedRows(deps.sql, endpointId),
    getEndpointOperator(deps.sql, endpointId),
  ]);
  const c = caps.get(endpointId);
  return {
    id: endpoint.id,
    url: endpoint.url,
    name: endpoint.name,
    provider: endpoint.provider,
    family: endpoint.family,
    network: endpoint.network,
    chain: endpoint.chain,
    status: endpoint.status,
    operatorVerified: isOperatorVerified(operator.operatorVerifiedAt),
    claimedBy: operator.claimedBy,
    createdAt: endpoint.createdAt.toISOString(),
    capabilities: c
      ? {
          checkedAt: c.checkedAt.toISOString(),
          archive: c.archive,
          batch: c.batch,
          websocket: c.websocket,
          wsUrl: c.wsUrl,
          wsNewHeadMs: c.wsNewHeadMs,
          cors: c.cors,
          logsMaxRange: c.logsMaxRange,
          coverage: c.coverage,
          clientVersion: c.clientVersion,
          methods: c.methods,
        }
      : null,
    windows: rows.map((r) => ({
      window: r.window as EndpointDetailResponse["windows"][number]["window"],
      region: r.region,
      rank: r.rank,
      score: r.score,
      health: healthOf(r.scoreStatus),
      samples: r.samples,
      okSamples: r.okSamples,
      availability: r.availability,
      p50Ms: r.p50Ms,
      p95Ms: r.p95Ms,
      lagBlocks: r.lagBlocks,
      headRegressions: r.headRegressions,
      components: r.components,
      vantage: vantageOf(r.components),
      updatedAt: r.updatedAt.toISOString(),
    })),
  };
}
