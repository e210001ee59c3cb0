import { submitEndpoint, SubmitEndpointInput } from "@rpcpulse/services/directory";
import { assertSameOrigin, readJsonBody, requireApiSession } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";
import { directoryDeps } from "../_lib/runtime-deps.js";
import { preflightResponse, runPublic } from "../_lib/public-api.js";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/endpoints: a signed-in user submits a public endpoint; it starts on probation. A URL
 * the prober would refuse (its name resolving to a loopback, private or metadata address, or not at
 * all) is a 400 with the reason; a DNS failure for now a 503.
 */
export async function POST(request: Request): Promise<Response> {
  const deps = directoryDeps();
  return runPublic(
    async () => {
      assertSameOrigin(request);
      const session = await requireApiSession(request);
      const endpoint = await readJsonBody(request, SubmitEndpointInput);
      const allowPrivate = getRuntime().env.PROBE_ALLOW_PRIVATE;
      return submitEndpoint({ ...deps, allowPrivate }, { userId: session.userId, endpoint });
    },
    { log: deps.log, status: 201, cache: false },
  );
}

export const OPTIONS = preflightResponse;
