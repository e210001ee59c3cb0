import { directoryDeps } from "@/app/api/v1/_lib/runtime-deps.js";
import { readHistory } from "@/app/api/v1/_lib/handlers.js";
import { preflightResponse, runPublic } from "@/app/api/v1/_lib/public-api.js";

export const dynamic = "force-dynamic";

/** GET /api/v1/endpoints/{id}/history?range=24h */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const deps = directoryDeps();
  const { id } = await context.params;
  return runPublic(() => readHistory(deps, id, new URL(request.url)), { log: deps.log, request });
}

export const OPTIONS = preflightResponse;
