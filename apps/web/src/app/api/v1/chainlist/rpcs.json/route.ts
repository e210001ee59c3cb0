import { readChainlistRpcs } from "@/app/api/v1/_lib/compat-handlers.js";
import { preflightResponse, runPublic } from "@/app/api/v1/_lib/public-api.js";
import { directoryDeps } from "@/app/api/v1/_lib/runtime-deps.js";

export const dynamic = "force-dynamic";

/** GET /api/v1/chainlist/rpcs.json: the EVM networks' ranked RPCs keyed by chain id (Chainlist's extraRpcs shape). */
export function GET(request: Request): Promise<Response> {
  const deps = directoryDeps();
  return runPublic(() => readChainlistRpcs(deps, new URL(request.url)), { log: deps.log, request });
}

export const OPTIONS = preflightResponse;
