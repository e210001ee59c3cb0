import { getEndpointLagSeries, listRecentProbeErrors } from "@rpcpulse/db/directory";
import { pickResolution, type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import { HistoryRange } from "./schemas.js";

const RANGE_MS: Record<HistoryRange, number> = {
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
};
const RECENT_ERRORS = 20;

export interface EndpointDiagnostics {
  range: HistoryRange;
  /** Blocks behind the network head per bucket (see getEndpointLagSeries). */
  lag: Array<{ time: string; lagBlocks: number; headBlock: number; networkHead: number }>;
  /** The newest failed probes in the range, any region. */
  errors: Array<{
    time: string;
    region: string;
    errorClass: string | null;
    httpStatus: number | null;
    message: string | null;
    rateLimited: boolean;
  }>;
}

/** Lag history and recent errors of an endpoint, for its public page. */
export async function getEndpointDiagnostics(
  deps: { sql: SqlClient; now?: () => Date },
  input: { endpointId: string; range: HistoryRange },
): Promise<EndpointDiagnostics> {
  const endpointId = z.uuid().parse(input.endpointId);
  const range = HistoryRange.parse(input.range);
  const to = deps.now?.() ?? new Date();
  const from = new Date(to.getTime() - RANGE_MS[range]);
  const [lag, errors] = await Promise.all([
    getEndpointLagSeries(deps.sql, { endpointId, from, to, resolution: pickResolution("auto", from, to) }),
    listRecentProbeErrors(deps.sql, { endpointId, since: from, limit: RECENT_ERRORS }),
  ]);
  return {
    range,
    lag: lag.map((p) => ({ ...p, time: p.time.toISOString() })),
    errors: errors.map((e) => ({ ...e, time: e.time.toISOString() })),
  };
}
