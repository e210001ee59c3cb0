import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbDateOrNull, dbNumber, dbNumberOrNull } from "../sql/row-values.js";

/** One consensus decision of a network (network_heads row). */
export interface NetworkHeadRow {
  networkId: string;
  time: Date;
  /** When headBlock was (estimated to be) produced: project with one block per interval from here. */
  anchorTime: Date;
  headBlock: number;
  considered: number;
  agreeing: number;
  quorum: number;
  evidence: NetworkHeadEvidence[];
}

/** How one source was weighed (bounded list stored with the decision). */
export const NetworkHeadEvidence = z.object({
  source: z.string().max(80),
  kind: z.enum(["endpoint", "organization"]),
  projectedHead: z.number().int().nullable(),
  excluded: z.string().max(16).nullable(),
  agrees: z.boolean(),
  ahead: z.boolean(),
});
export type NetworkHeadEvidence = z.infer<typeof NetworkHeadEvidence>;

/** At most this many evidence entries are stored per decision (the top of the list by projected head). */
export const MAX_NETWORK_HEAD_EVIDENCE = 64;

const HeadRow = z.object({
  network_id: z.string(),
  time: dbDate,
  anchor_time: dbDate,
  head_block: dbNumber,
  considered: dbNumber,
  agreeing: dbNumber,
  quorum: dbNumber,
  evidence: z.unknown(),
});

function toHeadRow(r: z.infer<typeof HeadRow>): NetworkHeadRow {
  const evidence = z.array(NetworkHeadEvidence).safeParse(r.evidence);
  return {
    networkId: r.network_id,
    time: r.time,
    anchorTime: r.anchor_time,
    headBlock: r.head_block,
    considered: r.considered,
    agreeing: r.agreeing,
    quorum: r.quorum,
    evidence: evidence.success ? evidence.data : [],
  };
}

const HEAD_COLUMNS = "network_id, time, anchor_time, head_block, considered, agreeing, quorum, evidence";

export async function insertNetworkHead(sql: SqlClient, row: NetworkHeadRow): Promise<void> {
  const evidence = row.evidence.slice(0, MAX_NETWORK_HEAD_EVIDENCE);
  await sql.query(
    `INSERT INTO network_heads (${HEAD_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
     ON CONFLICT (network_id, time) DO NOTHING`,
    [
      row.networkId,
      row.time,
      row.anchorTime,
      row.headBlock,
      row.considered,
      row.agreeing,
      row.quorum,
      JSON.stringify(evidence),
    ],
  );
}

/** Decisions since `since`, oldest first (every network, or one). */
export async function listNetworkHeadHistory(
  sql: SqlClient,
  params: { since: Date; networkId?: string; limit?: number },
): Promise<NetworkHeadRow[]> {
  const { rows } = await sql.query(
    `SELECT ${HEAD_COLUMNS} FROM network_heads
     WHERE time >= $1 AND ($2::uuid IS NULL OR network_id = $2::uuid)
     ORDER BY time LIMIT $3`,
    [params.since, params.networkId ?? null, Math.min(100_000, Math.max(1, params.limit ?? 20_000))],
  );
  return z.array(HeadRow).parse(rows).map(toHeadRow);
}

/** The newest decision per network (by slug when given), no older than `since`. */
export async function listLatestNetworkHeads(
  sql: SqlClient,
  params: { since: Date; networkSlug?: string },
): Promise<Array<NetworkHeadRow & { networkSlug: string; blockIntervalMs: number }>> {
  const { rows } = await sql.query(
    `SELECT DISTINCT ON (h.network_id) ${HEAD_COLUMNS.split(", ")
      .map((c) => `h.${c}`)
      .join(", ")}, n.slug, n.block_interval_ms
     FROM network_heads h JOIN networks n ON n.id = h.network_id
     WHERE h.time >= $1 AND ($2::text IS NULL OR n.slug = $2)
     ORDER BY h.network_id, h.time DESC`,
    [params.since, params.networkSlug ?? null],
  );
  return z
    .array(HeadRow.extend({ slug: z.string(), block_interval_ms: dbNumber }))
    .parse(rows)
    .map((r) => ({ ...toHeadRow(r), networkSlug: r.slug, blockIntervalMs: r.block_interval_ms }));
}

/** Every network with its block interval (the consensus job walks them all). */
export async function listNetworkTimings(
  sql: SqlClient,
): Promise<Array<{ id: string; slug: string; blockIntervalMs: number }>> {
  const { rows } = await sql.query(`SELECT id, slug, block_interval_ms FROM networks ORDER BY slug`);
  return z
    .array(z.object({ id: z.string(), slug: z.string(), block_interval_ms: dbNumber }))
    .parse(rows)
    .map((r) => ({ id: r.id, slug: r.slug, blockIntervalMs: r.block_interval_ms }));
}

/** The observation a listed (active) endpoint votes with for the consensus head (see listEndpointRegionHeadInputs). */
export interface EndpointHeadInput {
  networkId: string;
  endpointId: string;
  /** Organization holding a verified claim on the endpoint (its endpoints count as one source). */
  claimantOrganizationId: string | null;
  headBlock: number;
  headTime: Date | null;
  observedAt: Date;
}

/** Newest head of each node that reported since `since`, with its organization and network. */
export interface NodeHeadInput {
  nodeId: string;
  organizationId: string;
  networkId: string;
  headBlock: number;
  headTime: Date | null;
  time: Date;
}

export async function listRecentNodeHeads(sql: SqlClient, params: { since: Date }): Promise<NodeHeadInput[]> {
  const { rows } = await sql.query(
    `SELECT l.node_id, n.organization_id, n.network_id, s.head_block, s.head_time, s.time
     FROM node_latest l
     JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
     JOIN nodes n ON n.id = l.node_id
     WHERE l.time >= $1 AND s.head_block IS NOT NULL`,
    [params.since],
  );
  return z
    .array(
      z.object({
        node_id: z.string(),
        organization_id: z.string(),
        network_id: z.string(),
        head_block: dbNumberOrNull,
        head_time: dbDateOrNull,
        time: dbDate,
      }),
    )
    .parse(rows)
    .flatMap((r) =>
      r.head_block === null
        ? []
        : [
            {
              nodeId: r.node_id,
              organizationId: r.organization_id,
              networkId: r.network_id,
              headBlock: r.head_block,
              headTime: r.head_time,
              time: r.time,
            },
          ],
    );
}

/** Drop decisions older than `before` (maintenance). Returns the rows removed. */
export async function pruneNetworkHeads(sql: SqlClient, params: { before: Date }): Promise<number> {
  const { rows } = await sql.query(
    `WITH gone AS (DELETE FROM network_heads WHERE time < $1 RETURNING 1) SELECT count(*) AS n FROM gone`,
    [params.before],
  );
  return z.array(z.object({ n: dbNumber })).parse(rows)[0]?.n ?? 0;
}

/**
 * Store revised lags of samples already written (a leader's batch arrived after its followers'):
 * one statement, only rows whose lag differs. Returns the rows changed.
 */
export async function updateNodeSampleLags(
  sql: SqlClient,
  rows: ReadonlyArray<{ nodeId: string; time: number; lagBlocks: number }>,
): Promise<number> {
  if (rows.length === 0) return 0;
  const { rows: out } = await sql.query(
    `WITH v AS (SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::int[]) AS v(node_id, time, lag)),
     u AS (UPDATE node_samples s SET lag_blocks = v.lag FROM v
           WHERE s.node_id = v.node_id AND s.time = v.time AND s.lag_blocks IS DISTINCT FROM v.lag RETURNING 1)
     SELECT count(*) AS n FROM u`,
    [
      rows.map((r) => r.nodeId),
      rows.map((r) => new Date(r.time)),
      rows.map((r) => Math.min(2_147_483_647, r.lagBlocks)),
    ],
  );
  return z.array(z.object({ n: dbNumber })).parse(out)[0]?.n ?? 0;
}
