import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbDateOrNull, dbNumber, dbNumberOrNull } from "../sql/row-values.js";

/**
 * Block producers an organization watches (producers, migration 0017) and what the worker last read
 * about each (producer_latest). Readings, misses and history: producer-readings.ts.
 */

export const PRODUCER_ACCOUNT_PATTERN = /^[a-z][a-z0-9.-]{2,15}$/;
/** A validator stash: an SS58 address (base58, 46-48 characters; checksum and prefix checked by the service). */
export const VALIDATOR_ADDRESS_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{46,48}$/;
export const PRODUCER_KINDS = ["witness", "validator"] as const;
export type ProducerKind = (typeof PRODUCER_KINDS)[number];

export interface ProducerRow {
  id: string;
  organizationId: string;
  kind: ProducerKind;
  network: string;
  account: string;
  createdAt: Date;
}

const ProducerDbRow = z
  .object({
    id: z.string(),
    organization_id: z.string(),
    kind: z.enum(PRODUCER_KINDS),
    network: z.string(),
    account: z.string(),
    created_at: dbDate,
  })
  .transform((r): ProducerRow => ({
    id: r.id,
    organizationId: r.organization_id,
    kind: r.kind,
    network: r.network,
    account: r.account,
    createdAt: r.created_at,
  }));

const PRODUCER_COLUMNS = `p.id::text AS id, p.organization_id, p.kind, nw.slug AS network, p.account, p.created_at`;

export const InsertProducerParams = z
  .object({
    organizationId: z.string().min(1),
    network: z.string().min(1),
    kind: z.enum(PRODUCER_KINDS).default("witness"),
    account: z.string().min(1).max(64),
  })
  .refine((p) => (p.kind === "witness" ? PRODUCER_ACCOUNT_PATTERN : VALIDATOR_ADDRESS_PATTERN).test(p.account), {
    path: ["account"],
    message: "not an account of this kind",
  });

/** Register a witness account or validator stash; null when the network is unknown; the existing row when already registered. */
export async function insertProducer(
  sql: SqlClient,
  params: z.input<typeof InsertProducerParams>,
): Promise<ProducerRow | null> {
  const p = InsertProducerParams.parse(params);
  const { rows } = await sql.query(
    `WITH nw AS (SELECT id, slug FROM networks WHERE slug = $2),
     ins AS (
       INSERT INTO producers (organization_id, network_id, kind, account)
       SELECT $1, nw.id, $4, $3 FROM nw
       ON CONFLICT (organization_id, network_id, account) DO NOTHING
       RETURNING *)
     SELECT ${PRODUCER_COLUMNS} FROM ins p JOIN nw ON nw.id = p.network_id
     UNION ALL
     SELECT ${PRODUCER_COLUMNS}
     FROM producers p JOIN networks nw ON nw.id = p.network_id
     WHERE p.organization_id = $1 AND nw.slug = $2 AND p.account = $3`,
    [p.organizationId, p.network, p.account, p.kind],
  );
  return rows[0] ? ProducerDbRow.parse(rows[0]) : null;
}

export async function deleteProducer(sql: SqlClient, params: { organizationId: string; id: string }): Promise<boolean> {
  const id = z.string().uuid().parse(params.id);
  const { rows } = await sql.query(`DELETE FROM producers WHERE id = $1 AND organization_id = $2 RETURNING id`, [
    id,
    params.organizationId,
  ]);
  return rows.length > 0;
}

export async function countProducers(sql: SqlClient, organizationId: string): Promise<number> {
  const { rows } = await sql.query(`SELECT count(*) AS n FROM producers WHERE organization_id = $1`, [organizationId]);
  return z.object({ n: dbNumber }).parse(rows[0]).n;
}

/** A producer with its latest reading (null before the first successful read). */
export interface ProducerStatusRow extends ProducerRow {
  latest: ProducerLatest | null;
  /** The last failed read, when no read succeeded since. */
  error: { message: string; at: Date } | null;
}

export interface ProducerLatest {
  observedAt: Date;
  source: string;
  headBlock: number;
  totalMissed: number;
  lastConfirmedBlock: number;
  signingKey: string;
  disabled: boolean;
  keyChangedAt: Date | null;
  previousSigningKey: string | null;
  runningVersion: string;
  hardforkVote: string;
  majorityVersion: string | null;
  feedBase: string | null;
  feedQuote: string | null;
  feedUpdatedAt: Date | null;
  votes: string;
  rank: number | null;
  inSchedule: boolean;
}

const StatusDbRow = z
  .object({
    id: z.string(),
    organization_id: z.string(),
    kind: z.enum(PRODUCER_KINDS),
    network: z.string(),
    account: z.string(),
    created_at: dbDate,
    observed_at: dbDateOrNull,
    source: z.string().nullable(),
    head_block: dbNumberOrNull,
    total_missed: dbNumberOrNull,
    last_confirmed_block: dbNumberOrNull,
    signing_key: z.string().nullable(),
    disabled: z.boolean().nullable(),
    key_changed_at: dbDateOrNull,
    previous_signing_key: z.string().nullable(),
    running_version: z.string().nullable(),
    hardfork_vote: z.string().nullable(),
    majority_version: z.string().nullable(),
    feed_base: z.string().nullable(),
    feed_quote: z.string().nullable(),
    feed_updated_at: dbDateOrNull,
    votes: z.string().nullable(),
    rank: dbNumberOrNull,
    in_schedule: z.boolean().nullable(),
    error: z.string().nullable(),
    error_at: dbDateOrNull,
  })
  .transform((r): ProducerStatusRow => {
    const base = ProducerDbRow.parse(r);
    const latest: ProducerLatest | null =
      r.observed_at === null || r.head_block === null
        ? null
        : {
            observedAt: r.observed_at,
            source: r.source ?? "",
            headBlock: r.head_block,
            totalMissed: r.total_missed ?? 0,
            lastConfirmedBlock: r.last_confirmed_block ?? 0,
            signingKey: r.signing_key ?? "",
            disabled: r.disabled ?? false,
            keyChangedAt: r.key_changed_at,
            previousSigningKey: r.previous_signing_key,
            runningVersion: r.running_version ?? "",
            hardforkVote: r.hardfork_vote ?? "",
            majorityVersion: r.majority_version,
            feedBase: r.feed_base,
            feedQuote: r.feed_quote,
            feedUpdatedAt: r.feed_updated_at,
            votes: r.votes ?? "0",
            rank: r.rank,
            inSchedule: r.in_schedule ?? false,
          };
    return {
      ...base,
      latest,
      error: r.error !== null && r.error_at !== null ? { message: r.error, at: r.error_at } : null,
    };
  });

/** Producers of some organizations (or all, for the worker) with their latest reading. */
export async function listProducerStatuses(
  sql: SqlClient,
  params: { organizationIds?: readonly string[]; ids?: readonly string[]; kind?: ProducerKind } = {},
): Promise<ProducerStatusRow[]> {
  const { rows } = await sql.query(
    `SELECT ${PRODUCER_COLUMNS}, l.observed_at, l.source, l.head_block, l.total_missed, l.last_confirmed_block,
            l.signing_key, l.disabled, l.key_changed_at, l.previous_signing_key, l.running_version,
            l.hardfork_vote, l.majority_version, l.feed_base, l.feed_quote, l.feed_updated_at, l.votes,
            l.rank, l.in_schedule, l.error, l.error_at
     FROM producers p
     JOIN networks nw ON nw.id = p.network_id
     LEFT JOIN producer_latest l ON l.producer_id = p.id
     WHERE ($1::text[] IS NULL OR p.organization_id = ANY($1::text[]))
       AND ($2::uuid[] IS NULL OR p.id = ANY($2::uuid[]))
       AND ($3::text IS NULL OR p.kind = $3)
     ORDER BY nw.slug, p.account, p.organization_id
     LIMIT 10000`,
    [
      params.organizationIds ? [...params.organizationIds] : null,
      params.ids ? [...params.ids] : null,
      params.kind ?? null,
    ],
  );
  return rows.map((r) => StatusDbRow.parse(r));
}

/**
 * Where to read a network's producers from: the public URLs of the organizations' own nodes on it
 * first, then the directory's active endpoints, best ranked first, then those still on probation.
 * `family`: which API (hive for witnesses, sidecar for validators); default hive.
 */
export async function listProducerSources(
  sql: SqlClient,
  params: { network: string; organizationIds: readonly string[]; limit?: number; family?: "hive" | "sidecar" },
): Promise<string[]> {
  const { rows } = await sql.query(
    `SELECT url FROM (
       SELECT n.public_url AS url, 0 AS tier, 0::float8 AS score
       FROM nodes n JOIN networks nw ON nw.id = n.network_id
       WHERE nw.slug = $1 AND n.organization_id = ANY($2::text[]) AND n.api_family = $4::api_family
         AND n.public_url IS NOT NULL AND n.public_url <> ''
       UNION ALL
       SELECT e.url, CASE WHEN e.status = 'active' THEN 1 ELSE 2 END AS tier, coalesce(max(r.score), 0)::float8 AS score
       FROM public_endpoints e JOIN networks nw ON nw.id = e.network_id
       LEFT JOIN endpoint_rankings r ON r.endpoint_id = e.id
       WHERE nw.slug = $1 AND e.status <> 'dead' AND e.api_family = $4::api_family
       GROUP BY e.url, e.status
     ) s
     GROUP BY url ORDER BY min(tier), max(score) DESC, url
     LIMIT $3`,
    [params.network, [...params.organizationIds], params.limit ?? 3, params.family ?? "hive"],
  );
  return rows.map((r) => z.object({ url: z.string() }).parse(r).url);
}
