import { submitEndpoint, SubmitEndpointInput } from "@rpcpulse/services";
import { assertSameOrigin, readJsonBody, requireApiSession } from "../../../../server/http.js";
import { directoryDeps } from "../_lib/runtime-deps.js";
import { preflightResponse, runPublic } from "../_lib/public-api.js";

export const dynamic = "force-dynamic";

/** POST /api/v1/endpoints: a signed-in user submits a public endpoint; it starts on probation. */
export async function POST(request: Request): Promise<Response> {
  const deps = directoryDeps();
  return runPublic(
    async () => {
      assertSameOrigin(request);
      const session = await requireApiSession(request);
      const endpoint = await readJsonBody(request, SubmitEndpointInput);
      return submitEndpoint(deps, { userId: session.userId, endpoint });
    },
    { log: deps.log, status: 201, cache: false },
  );
}

export const OPTIONS = preflightResponse;
