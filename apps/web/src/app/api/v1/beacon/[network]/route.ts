import { directoryDeps } from "@/app/api/v1/_lib/runtime-deps.js";
import { readBeaconList } from "@/app/api/v1/_lib/handlers.js";
import { preflightResponse, runPublic } from "@/app/api/v1/_lib/public-api.js";

export const dynamic = "force-dynamic";

/** GET /api/v1/beacon/{network}: the ranked list in PeakD Beacon's /api/nodes shape. */
export async function GET(request: Request, context: { params: Promise<{ network: string }> }): Promise<Response> {
  const deps = directoryDeps();
  const { network } = await context.params;
  return runPublic(() => readBeaconList(deps, network, new URL(request.url)), { log: deps.log, request });
}

export const OPTIONS = preflightResponse;
