import { directoryDeps } from "@/app/api/v1/_lib/runtime-deps.js";
import { readEndpoint } from "@/app/api/v1/_lib/handlers.js";
import { preflightResponse, runPublic } from "@/app/api/v1/_lib/public-api.js";

export const dynamic = "force-dynamic";

/** GET /api/v1/endpoints/{id}: capabilities and scores per window and region. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const deps = directoryDeps();
  const { id } = await context.params;
  return runPublic(() => readEndpoint(deps, id), { log: deps.log, request });
}

export const OPTIONS = preflightResponse;
