import { randomBytes } from "node:crypto";
import { AppError } from "@rpcpulse/config";
import {
  CLAIM_PROOF_METHODS,
  deleteEndpointClaim,
  findEndpointIdByUrl,
  findEndpointClaim,
  listOrganizationClaims,
  recordClaimCheck,
  upsertEndpointClaim,
  type ClaimProofMethod,
} from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../../context.js";
import { checkDnsProof, checkWellKnownProof, type ClaimHttpClient, type TxtResolver } from "./claim-proofs.js";
import { presentClaim, type EndpointClaimView } from "./claim-view.js";

export interface ClaimDeps {
  sql: SqlClient;
  /** TXT lookups (the system resolver in the app; a local DNS server in tests). */
  resolveTxt: TxtResolver;
  /** Fetches the well-known file: the prober's SSRF-safe client (a local HTTPS server in tests). */
  http: ClaimHttpClient;
  now?: () => Date;
}

const Id = z.uuid({ error: "Not a valid id." });
/** Verification attempts per claim: one every 5 s at most (each may cost a DNS lookup or an HTTPS fetch). */
const MIN_CHECK_INTERVAL_MS = 5_000;

/** The organization's claims (any member may look). */
export async function listEndpointClaims(
  deps: Pick<ClaimDeps, "sql">,
  ctx: ServiceContext,
): Promise<EndpointClaimView[]> {
  return (await listOrganizationClaims(deps.sql, ctx.organizationId)).map(presentClaim);
}

/**
 * Start (or show again) the organization's claim on a listed endpoint, named by its id or its exact
 * URL: admin or owner.
 */
export async function claimEndpoint(
  deps: Pick<ClaimDeps, "sql">,
  ctx: ServiceContext,
  input: { endpoint: string },
): Promise<EndpointClaimView> {
  requireRole(ctx, "admin");
  const ref = z.string().trim().min(1, "Give the endpoint's id or URL.").max(2048).parse(input.endpoint);
  const endpointId = Id.safeParse(ref).success ? ref : await findEndpointIdByUrl(deps.sql, ref);
  const row = endpointId
    ? await upsertEndpointClaim(deps.sql, {
        endpointId,
        organizationId: ctx.organizationId,
        token: randomBytes(16).toString("hex"),
        createdBy: ctx.userId,
      })
    : null;
  if (!row) throw new AppError("NOT_FOUND", "No listed endpoint has this id or URL.");
  return presentClaim(row);
}

/**
 * Check the claim's proof now: the DNS TXT record, or the token served by the endpoint at
 * https://<host>/.well-known/rpcpulse-claim. Success makes the organization the endpoint's claimant
 * (taking it over from another organization: the current proof is what counts). Nothing an agent
 * reports is a proof. A failure is recorded with its reason and returned, not thrown.
 */
export async function verifyEndpointClaim(
  deps: ClaimDeps,
  ctx: ServiceContext,
  input: { claimId: string; method: ClaimProofMethod },
): Promise<EndpointClaimView> {
  requireRole(ctx, "admin");
  const method = z.enum(CLAIM_PROOF_METHODS, { error: "Verify by DNS record or well-known file." }).parse(input.method);
  const claimId = Id.safeParse(input.claimId);
  const claim = claimId.success
    ? await findEndpointClaim(deps.sql, { organizationId: ctx.organizationId, claimId: claimId.data })
    : null;
  if (!claim) throw new AppError("NOT_FOUND", "Claim not found.");
  const now = deps.now?.() ?? new Date();
  if (claim.lastCheckedAt && now.getTime() - claim.lastCheckedAt.getTime() < MIN_CHECK_INTERVAL_MS)
    throw new AppError("RATE_LIMITED", "This claim was just checked; try again in a few seconds.", {
      retryAfterSeconds: 5,
    });
  const result =
    method === "dns"
      ? await checkDnsProof(deps.resolveTxt, claim.url, claim.token)
      : await checkWellKnownProof(deps.http, claim.url, claim.token);
  await recordClaimCheck(deps.sql, {
    organizationId: ctx.organizationId,
    claimId: claim.id,
    at: now,
    ok: result.ok,
    method,
    error: result.ok ? null : result.reason,
  });
  const updated = await findEndpointClaim(deps.sql, { organizationId: ctx.organizationId, claimId: claim.id });
  if (!updated) throw new AppError("NOT_FOUND", "Claim not found.");
  return presentClaim(updated);
}

/** Withdraw a claim: admin or owner. The endpoint is unclaimed if this organization held it. */
export async function withdrawEndpointClaim(
  deps: Pick<ClaimDeps, "sql">,
  ctx: ServiceContext,
  input: { claimId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  const claimId = Id.safeParse(input.claimId);
  if (
    !claimId.success ||
    !(await deleteEndpointClaim(deps.sql, { organizationId: ctx.organizationId, claimId: claimId.data }))
  )
    throw new AppError("NOT_FOUND", "Claim not found.");
}
