import { directoryDeps } from "@/app/api/v1/_lib/runtime-deps.js";
import { readRankedList } from "@/app/api/v1/_lib/handlers.js";
import { preflightResponse, runPublic } from "@/app/api/v1/_lib/public-api.js";

export const dynamic = "force-dynamic";

/** GET /api/v1/chains/{network}/endpoints?region=&capability=archive,websocket&minScore=&window=24h */
export async function GET(request: Request, context: { params: Promise<{ network: string }> }): Promise<Response> {
  const deps = directoryDeps();
  const { network } = await context.params;
  return runPublic(() => readRankedList(deps, network, new URL(request.url)), { log: deps.log, request });
}

export const OPTIONS = preflightResponse;
