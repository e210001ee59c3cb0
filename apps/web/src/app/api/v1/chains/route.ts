import { directoryDeps } from "../_lib/runtime-deps.js";
import { readChains } from "../_lib/handlers.js";
import { preflightResponse, runPublic } from "../_lib/public-api.js";

export const dynamic = "force-dynamic";

/** GET /api/v1/chains: networks of the directory with endpoint counts and consensus heads. */
export function GET(request: Request): Promise<Response> {
  const deps = directoryDeps();
  return runPublic(() => readChains(deps), { log: deps.log, request });
}

export const OPTIONS = preflightResponse;
