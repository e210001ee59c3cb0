import { AppError } from "@rpcpulse/config";
import { countEndpointsSubmittedSince, findEndpointIdByUrl, insertPublicEndpoints, type SqlClient } from "@rpcpulse/db";
import { CHAINS, findNetwork } from "@rpcpulse/domain";
import { checkUrl, DEFAULT_ALLOWED_PORTS, HTTP_SCHEMES, ProbeError } from "@rpcpulse/prober";
import { SubmitEndpointInput, type SubmitEndpointResponse } from "./schemas.js";

/** Submissions per user per hour (counted in the database, so every web replica agrees). */
export const SUBMISSIONS_PER_HOUR = 5;

/**
 * A signed-in user submits a public endpoint: the URL must pass the prober's URL policy (no private,
 * loopback or metadata targets, http/https, usual ports), the network must exist and speak the family.
 * It starts on probation; probing promotes it. Claiming by an organization (DNS TXT or the agent) is a
 * later step.
 */
export async function submitEndpoint(
  deps: { sql: SqlClient; now?: () => Date },
  input: { userId: string; endpoint: unknown },
): Promise<SubmitEndpointResponse> {
  const e = SubmitEndpointInput.parse(input.endpoint);
  const network = findNetwork(e.network);
  if (!network) throw new AppError("VALIDATION", `Unknown network "${e.network}".`, { details: { field: "network" } });
  const chain = CHAINS.find((c) => c.slug === network.chain);
  const family = e.family ?? chain?.families[0];
  if (!family || !chain?.families.includes(family)) {
    throw new AppError(
      "VALIDATION",
      `Network ${e.network} has no ${e.family} API (it has ${chain?.families.join(", ")}).`,
      {
        details: { field: "family" },
      },
    );
  }
  let url: URL;
  try {
    url = checkUrl(e.url, { schemes: HTTP_SCHEMES, allowedPorts: DEFAULT_ALLOWED_PORTS, allowPrivate: false }).url;
  } catch (error) {
    const reason = error instanceof ProbeError ? error.message : "not a valid URL";
    throw new AppError("VALIDATION", `URL refused: ${reason}`, { details: { field: "url" } });
  }
  if (url.search || url.hash)
    throw new AppError("VALIDATION", "URL refused: no query or fragment.", { details: { field: "url" } });
  const normalized = url.pathname === "/" ? url.origin : `${url.origin}${url.pathname.replace(/\/+$/, "")}`;

  const now = deps.now?.() ?? new Date();
  const recent = await countEndpointsSubmittedSince(deps.sql, input.userId, new Date(now.getTime() - 3_600_000));
  if (recent >= SUBMISSIONS_PER_HOUR) {
    throw new AppError("RATE_LIMITED", `At most ${SUBMISSIONS_PER_HOUR} submissions per hour.`, {
      retryAfterSeconds: 3_600,
    });
  }
  if (await findEndpointIdByUrl(deps.sql, normalized))
    throw new AppError("CONFLICT", "This endpoint is listed already.");
  const [id] = await insertPublicEndpoints(deps.sql, [
    {
      network: e.network,
      family,
      url: normalized,
      name: e.name ?? url.host,
      provider: e.provider ?? null,
      submittedBy: input.userId,
      status: "probation",
    },
  ]);
  if (!id) throw new AppError("CONFLICT", "This endpoint is listed already.");
  return { id, url: normalized, network: e.network, family, status: "probation" };
}
