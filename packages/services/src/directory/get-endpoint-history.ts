import { AppError } from "@rpcpulse/config";
import { findDirectoryEndpoint, getProbeSeries } from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import { HistoryRange, type EndpointHistoryResponse } from "./schemas.js";

export const GetEndpointHistoryInput = z
  .object({ endpointId: z.string().uuid(), range: HistoryRange.default("24h") })
  .strict();

const RANGE_MS: Record<HistoryRange, number> = {
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 604_800_000,
  "30d": 2_592_000_000,
};

/** Probe history of one endpoint over every vantage point: raw for 1 h, then 1-minute and 1-hour rollups. */
export async function getEndpointHistory(
  deps: { sql: SqlClient; now?: () => Date },
  input: z.input<typeof GetEndpointHistoryInput>,
): Promise<EndpointHistoryResponse> {
  const q = GetEndpointHistoryInput.parse(input);
  const endpoint = await findDirectoryEndpoint(deps.sql, q.endpointId);
  if (!endpoint) throw new AppError("NOT_FOUND", "Endpoint not found.");
  const to = deps.now?.() ?? new Date();
  const from = new Date(to.getTime() - RANGE_MS[q.range]);
  const series = await getProbeSeries(deps.sql, { endpointId: q.endpointId, from, to: new Date(to.getTime() + 1) });
  return {
    endpointId: q.endpointId,
    range: q.range,
    resolution: series.resolution,
    points: series.points.map((p) => ({
      time: p.time.toISOString(),
      probes: p.probes,
      availability: p.availability,
      ttfbMsAvg: p.ttfbMsAvg,
      totalMsAvg: p.totalMsAvg,
      totalMsP95: p.totalMsP95,
      headBlockMax: p.headBlockMax,
      rateLimited: p.rateLimitedCount,
    })),
  };
}
