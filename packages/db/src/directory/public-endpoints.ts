import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber } from "../sql/row-values.js";
import { OPERATOR_VERIFIED_AT } from "./endpoint-rankings.js";

const ApiFamilyValue = z.enum(["hive", "ethereum", "substrate", "sidecar"]);
export const EndpointStatusValue = z.enum(["probation", "active", "dead"]);
export type EndpointStatusValue = z.infer<typeof EndpointStatusValue>;

/** A listed endpoint with what probing needs (network slug and block interval). */
export const DirectoryEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    name: z.string(),
    provider: z.string().nullable(),
    api_family: ApiFamilyValue,
    status: EndpointStatusValue,
    network: z.string(),
    chain: z.string(),
    block_interval_ms: dbNumber,
    submitted_by: z.string().nullable(),
    created_at: dbDate,
  })
  .transform((r) => ({
    id: r.id,
    url: r.url,
    name: r.name,
    provider: r.provider,
    family: r.api_family,
    status: r.status,
    network: r.network,
    chain: r.chain,
    blockIntervalMs: r.block_interval_ms,
    submittedBy: r.submitted_by,
    createdAt: r.created_at,
  }));
export type DirectoryEndpoint = z.output<typeof DirectoryEndpoint>;

const SELECT_ENDPOINTS = `
SELECT e.id, e.url, e.name, e.provider, e.api_family, e.status, n.slug AS network, n.chain_slug AS chain,
  n.block_interval_ms, e.submitted_by, e.created_at
FROM public_endpoints e JOIN networks n ON n.id = e.network_id`;

/** Every listed endpoint (optionally of some networks), ordered by network then URL. */
export async function listDirectoryEndpoints(
  sql: SqlClient,
  filter: { networks?: readonly string[]; ids?: readonly string[] } = {},
): Promise<DirectoryEndpoint[]> {
  const { rows } = await sql.query(
    `${SELECT_ENDPOINTS}
     WHERE ($1::text[] IS NULL OR n.slug = ANY($1)) AND ($2::uuid[] IS NULL OR e.id = ANY($2))
     ORDER BY n.slug, e.url`,
    [filter.networks ? [...filter.networks] : null, filter.ids ? [...filter.ids] : null],
  );
  return rows.map((r) => DirectoryEndpoint.parse(r));
}

export async function findDirectoryEndpoint(sql: SqlClient, id: string): Promise<DirectoryEndpoint | null> {
  if (!z.string().uuid().safeParse(id).success) return null;
  const { rows } = await sql.query(`${SELECT_ENDPOINTS} WHERE e.id = $1`, [id]);
  return rows[0] ? DirectoryEndpoint.parse(rows[0]) : null;
}

export const NewPublicEndpoint = z.object({
  network: z.string().min(1),
  family: ApiFamilyValue,
  url: z.string().url().max(2048),
  name: z.string().min(1).max(120),
  provider: z.string().max(120).nullish(),
  submittedBy: z.string().max(200).nullish(),
  status: EndpointStatusValue.default("probation"),
});
export type NewPublicEndpoint = z.input<typeof NewPublicEndpoint>;

/**
 * Inserts endpoints whose URL is not listed yet (idempotent: an existing URL keeps its row and
 * status). Returns the ids of the rows inserted, in input order (null where the URL existed).
 */
export async function insertPublicEndpoints(
  sql: SqlClient,
  input: readonly NewPublicEndpoint[],
): Promise<Array<string | null>> {
  const out: Array<string | null> = [];
  for (const raw of input) {
    const e = NewPublicEndpoint.parse(raw);
    const { rows } = await sql.query(
      `INSERT INTO public_endpoints (network_id, api_family, url, name, provider, status, submitted_by)
       SELECT n.id, $2::api_family, $3, $4, $5, $6::endpoint_status, $7 FROM networks n WHERE n.slug = $1
       ON CONFLICT (url) DO NOTHING
       RETURNING id`,
      [e.network, e.family, e.url, e.name, e.provider ?? null, e.status, e.submittedBy ?? null],
    );
    out.push(z.object({ id: z.string() }).optional().parse(rows[0])?.id ?? null);
  }
  return out;
}

export async function findEndpointIdByUrl(sql: SqlClient, url: string): Promise<string | null> {
  const { rows } = await sql.query(`SELECT id FROM public_endpoints WHERE url = $1`, [url]);
  return z.object({ id: z.string() }).optional().parse(rows[0])?.id ?? null;
}

/** Endpoints submitted by `submittedBy` since `since` (per-user submission rate limit). */
export async function countEndpointsSubmittedSince(sql: SqlClient, submittedBy: string, since: Date): Promise<number> {
  const { rows } = await sql.query(
    `SELECT count(*)::integer AS n FROM public_endpoints WHERE submitted_by = $1 AND created_at >= $2`,
    [submittedBy, since],
  );
  return z.object({ n: z.number() }).parse(rows[0]).n;
}

/** Sets listing statuses; returns how many rows changed. */
export async function setEndpointStatuses(
  sql: SqlClient,
  changes: ReadonlyArray<{ id: string; status: EndpointStatusValue }>,
): Promise<number> {
  if (changes.length === 0) return 0;
  const { rows } = await sql.query(
    `WITH c AS (SELECT * FROM unnest($1::uuid[], $2::endpoint_status[]) AS t(id, status)),
     u AS (UPDATE public_endpoints e SET status = c.status FROM c WHERE e.id = c.id AND e.status <> c.status RETURNING 1)
     SELECT count(*)::integer AS n FROM u`,
    [changes.map((c) => c.id), changes.map((c) => EndpointStatusValue.parse(c.status))],
  );
  return z.object({ n: z.number() }).parse(rows[0]).n;
}

export const VantagePointRow = z.object({ id: z.string(), name: z.string(), region: z.string(), kind: z.string() });
export type VantagePointRow = z.infer<typeof VantagePointRow>;

/**
 * The vantage point called `name` (created on first use; region updated). Server probe workers use
 * kind "server"; an opted-in agent will use kind "agent" with its nodeId.
 */
export async function ensureVantagePoint(
  sql: SqlClient,
  input: { name: string; region: string; kind: "server" | "agent"; nodeId?: string | null },
): Promise<VantagePointRow> {
  const { rows } = await sql.query(
    `INSERT INTO vantage_points (name, region, kind, node_id) VALUES ($1, $2, $3::vantage_kind, $4)
     ON CONFLICT (name) DO UPDATE SET region = EXCLUDED.region
     RETURNING id, name, region, kind::text AS kind`,
    [input.name, input.region, input.kind, input.nodeId ?? null],
  );
  return VantagePointRow.parse(rows[0]);
}

/** Who runs the endpoint, as the public pages show it: the claiming organization and when it proved control. */
export async function getEndpointOperator(
  sql: SqlClient,
  endpointId: string,
): Promise<{ claimedBy: string | null; operatorVerifiedAt: Date | null }> {
  const { rows } = await sql.query(
    `SELECT (SELECT o.name FROM organizations o WHERE o.id = e.claimed_by_organization_id) AS claimed_by,
       ${OPERATOR_VERIFIED_AT} AS operator_verified_at
     FROM public_endpoints e WHERE e.id = $1`,
    [endpointId],
  );
  const r = z
    .object({ claimed_by: z.string().nullable(), operator_verified_at: dbDate.nullable() })
    .optional()
    .parse(rows[0]);
  return { claimedBy: r?.claimed_by ?? null, operatorVerifiedAt: r?.operator_verified_at ?? null };
}
