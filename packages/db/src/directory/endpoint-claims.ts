import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate } from "../sql/row-values.js";

/** How a claim was proved: a DNS TXT record, or the token served at /.well-known/rpcpulse-claim. */
export const CLAIM_PROOF_METHODS = ["dns", "well-known"] as const;
export type ClaimProofMethod = (typeof CLAIM_PROOF_METHODS)[number];

/** A claim as the organization sees it, with the endpoint it is about. */
export const EndpointClaimRow = z
  .object({
    id: z.string(),
    endpoint_id: z.string(),
    organization_id: z.string(),
    token: z.string(),
    created_at: dbDate,
    verified_method: z.enum(CLAIM_PROOF_METHODS).nullable(),
    verified_at: dbDate.nullable(),
    last_checked_at: dbDate.nullable(),
    last_error: z.string().nullable(),
    url: z.string(),
    name: z.string(),
    network: z.string(),
    /** The endpoint is currently claimed by this organization. */
    holds: z.boolean(),
  })
  .transform((r) => ({
    id: r.id,
    endpointId: r.endpoint_id,
    organizationId: r.organization_id,
    token: r.token,
    createdAt: r.created_at,
    verifiedMethod: r.verified_method,
    verifiedAt: r.verified_at,
    lastCheckedAt: r.last_checked_at,
    lastError: r.last_error,
    url: r.url,
    name: r.name,
    network: r.network,
    holds: r.holds,
  }));
export type EndpointClaimRow = z.output<typeof EndpointClaimRow>;

const SELECT_CLAIMS = `
SELECT c.id, c.endpoint_id, c.organization_id, c.token, c.created_at, c.verified_method, c.verified_at,
  c.last_checked_at, c.last_error, e.url, e.name, n.slug AS network,
  (e.claimed_by_organization_id IS NOT DISTINCT FROM c.organization_id) AS holds
FROM endpoint_claims c JOIN public_endpoints e ON e.id = c.endpoint_id JOIN networks n ON n.id = e.network_id`;

/**
 * The organization's claim on the endpoint, created with `token` when it has none (an existing
 * claim keeps its token). Returns null when the endpoint does not exist.
 */
export async function upsertEndpointClaim(
  sql: SqlClient,
  input: { endpointId: string; organizationId: string; token: string; createdBy: string },
): Promise<EndpointClaimRow | null> {
  if (!z.uuid().safeParse(input.endpointId).success) return null;
  const { rows } = await sql.query(
    `WITH ins AS (
       INSERT INTO endpoint_claims (endpoint_id, organization_id, token, created_by)
       SELECT e.id, $2, $3, $4 FROM public_endpoints e WHERE e.id = $1
       ON CONFLICT (endpoint_id, organization_id) DO NOTHING RETURNING id)
     SELECT coalesce((SELECT id FROM ins), (SELECT id FROM endpoint_claims WHERE endpoint_id = $1 AND organization_id = $2)) AS id`,
    [input.endpointId, input.organizationId, input.token, input.createdBy],
  );
  const id = z.object({ id: z.string().nullable() }).parse(rows[0]).id;
  return id ? findEndpointClaim(sql, { organizationId: input.organizationId, claimId: id }) : null;
}

/** One claim of the organization (null when it is another organization's or does not exist). */
export async function findEndpointClaim(
  sql: SqlClient,
  input: { organizationId: string; claimId: string },
): Promise<EndpointClaimRow | null> {
  if (!z.uuid().safeParse(input.claimId).success) return null;
  const { rows } = await sql.query(`${SELECT_CLAIMS} WHERE c.id = $1 AND c.organization_id = $2`, [
    input.claimId,
    input.organizationId,
  ]);
  return rows[0] ? EndpointClaimRow.parse(rows[0]) : null;
}

/** The organization's claims, newest first. */
export async function listOrganizationClaims(sql: SqlClient, organizationId: string): Promise<EndpointClaimRow[]> {
  const { rows } = await sql.query(`${SELECT_CLAIMS} WHERE c.organization_id = $1 ORDER BY c.created_at DESC`, [
    organizationId,
  ]);
  return rows.map((r) => EndpointClaimRow.parse(r));
}

/**
 * Records a verification attempt. On success (a DNS or well-known proof checked just now) the claim is
 * verified and the endpoint is claimed by the organization, in one statement: a later proof by another
 * organization takes the endpoint over. A failed re-check keeps an earlier verification.
 */
export async function recordClaimCheck(
  sql: SqlClient,
  input: {
    organizationId: string;
    claimId: string;
    at: Date;
    ok: boolean;
    method: ClaimProofMethod;
    error?: string | null;
  },
): Promise<void> {
  const method = z.enum(CLAIM_PROOF_METHODS).parse(input.method);
  await sql.query(
    `WITH c AS (
       UPDATE endpoint_claims SET last_checked_at = $3, last_error = $4,
         verified_at = CASE WHEN $5 THEN $3 ELSE verified_at END,
         verified_method = CASE WHEN $5 THEN $6 ELSE verified_method END
       WHERE id = $1 AND organization_id = $2 RETURNING endpoint_id)
     UPDATE public_endpoints e SET claimed_by_organization_id = $2 FROM c WHERE e.id = c.endpoint_id AND $5`,
    [
      input.claimId,
      input.organizationId,
      input.at,
      input.ok ? null : (input.error ?? "not verified").slice(0, 500),
      input.ok,
      method,
    ],
  );
}

/** Withdraws the organization's claim; the endpoint is unclaimed when this organization held it. */
export async function deleteEndpointClaim(
  sql: SqlClient,
  input: { organizationId: string; claimId: string },
): Promise<boolean> {
  if (!z.uuid().safeParse(input.claimId).success) return false;
  const { rows } = await sql.query(
    `WITH d AS (DELETE FROM endpoint_claims WHERE id = $1 AND organization_id = $2 RETURNING endpoint_id),
     u AS (UPDATE public_endpoints e SET claimed_by_organization_id = NULL FROM d
           WHERE e.id = d.endpoint_id AND e.claimed_by_organization_id = $2 RETURNING 1)
     SELECT (SELECT count(*) FROM d)::integer AS n`,
    [input.claimId, input.organizationId],
  );
  return z.object({ n: z.number() }).parse(rows[0]).n > 0;
}
