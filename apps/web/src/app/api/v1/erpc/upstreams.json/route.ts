import { readErpcUpstreams } from "@/app/api/v1/_lib/compat-handlers.js";
import { preflightResponse, runPublic } from "@/app/api/v1/_lib/public-api.js";
import { directoryDeps } from "@/app/api/v1/_lib/runtime-deps.js";

export const dynamic = "force-dynamic";

/** GET /api/v1/erpc/upstreams.json: the EVM networks' ranked endpoints as eRPC upstreams (projects[].upstreams). */
export function GET(request: Request): Promise<Response> {
  const deps = directoryDeps();
  return runPublic(() => readErpcUpstreams(deps, new URL(request.url)), { log: deps.log, request });
}

export const OPTIONS = preflightResponse;
