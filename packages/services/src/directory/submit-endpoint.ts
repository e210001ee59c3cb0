import { AppError } from "@rpcpulse/config";
import { countEndpointsSubmittedSince, findEndpointIdByUrl, insertPublicEndpoints } from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import { CHAINS, findNetwork } from "@rpcpulse/domain";
import {
  checkUrl,
  DEFAULT_ALLOWED_PORTS,
  HTTP_SCHEMES,
  ProbeError,
  resolveTarget,
  type Resolver,
  type UrlPolicy,
} from "@rpcpulse/prober";
import { SubmitEndpointInput, type SubmitEndpointResponse } from "./schemas.js";

/** Submissions per user per hour (counted in the database, so every web replica agrees). */
export const SUBMISSIONS_PER_HOUR = 5;

export interface SubmitEndpointDeps {
  sql: SqlClient;
  now?: () => Date;
  /** DNS answers for the URL's host (tests inject a map). Default: the system resolver, as the prober's. */
  resolver?: Resolver;
  /**
   * The prober may reach loopback/private addresses (PROBE_ALLOW_PRIVATE: self-hosted lists, demo,
   * tests), so such endpoints may be listed. Metadata, reserved and the like stay refused. Default false.
   */
  allowPrivate?: boolean;
}

/** The URL/address policy of the prober's HTTP client with the same allowPrivate setting. */
function proberPolicy(allowPrivate: boolean): UrlPolicy {
  return { schemes: HTTP_SCHEMES, allowPrivate, allowedPorts: allowPrivate ? null : DEFAULT_ALLOWED_PORTS };
}

const urlError = (message: string) => new AppError("VALIDATION", message, { details: { field: "url" } });

/** Refuses a URL the prober would not connect to, by the same policy and DNS check as its connections. */
async function assertProbeable(url: string, deps: SubmitEndpointDeps, policy: UrlPolicy): Promise<void> {
  const verdict = await resolveTarget(url, { policy, ...(deps.resolver ? { resolver: deps.resolver } : {}) });
  if (verdict.ok) return;
  switch (verdict.reason) {
    case "refused":
      throw urlError(`URL refused: ${verdict.message}; the prober does not connect to such addresses.`);
    case "unresolved":
      throw urlError(`URL refused: ${verdict.message}; only names with a public address can be listed.`);
    case "bad_url":
      throw urlError(`URL refused: ${verdict.message}`);
    case "dns_unavailable":
      throw new AppError("UNAVAILABLE", `Could not check the URL now: ${verdict.message}. Try again in a minute.`, {
        retryAfterSeconds: 60,
        details: { field: "url" },
      });
  }
}

/**
 * A signed-in user submits a public endpoint: the URL must pass the prober's URL policy (no private,
 * loopback or metadata targets, http/https, usual ports), its name must resolve, and only to addresses
 * the prober would connect to (same look-up and address policy: 127.0.0.1.nip.io, localtest.me and
 * names of metadata or private addresses are refused with the reason); the network must exist and
 * speak the family. It starts on probation; probing promotes it. Claiming by an organization is a
 * later step.
 */
export async function submitEndpoint(
  deps: SubmitEndpointDeps,
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
  const policy = proberPolicy(deps.allowPrivate ?? false);
  let url: URL;
  try {
    url = checkUrl(e.url, policy).url;
  } catch (error) {
    throw urlError(`URL refused: ${error instanceof ProbeError ? error.message : "not a valid URL"}`);
  }
  if (url.search || url.hash) throw urlError("URL refused: no query or fragment.");
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
  // After the rate limit: a look-up per submission, never an unmetered DNS oracle.
  await assertProbeable(normalized, deps, policy);
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
