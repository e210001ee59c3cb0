import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber, dbNumberOrNull } from "../sql/row-values.js";

export const RankingWindow = z.enum(["1h", "24h", "7d"]);
export type RankingWindow = z.infer<typeof RankingWindow>;
/** Region of rankings over every vantage point. */
export const ALL_REGIONS = "all";

export const EndpointRankingRow = z.object({
  endpointId: z.string().uuid(),
  rank: z.number().int().positive(),
  score: z.number().min(0).max(100),
  status: z.enum(["healthy", "degraded", "lagging", "stale", "probation", "dead"]),
  samples: z.number().int().nonnegative(),
  okSamples: z.number().int().nonnegative(),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  lagBlocks: z.number().nullable(),
  availability: z.number().min(0).max(1).nullable(),
  headRegressions: z.number().int().nonnegative(),
  components: z.record(z.string(), z.unknown()),
});
export type EndpointRankingRow = z.infer<typeof EndpointRankingRow>;

const UUID = z.regexes.uuid();
const RANKING_STATUSES: ReadonlySet<unknown> = new Set(EndpointRankingRow.shape.status.options);
const isCount = (x: unknown) => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
const isNumberOrNull = (x: unknown) => x === null || (typeof x === "number" && Number.isFinite(x));

/**
 * EndpointRankingRow.parse without a schema pass per row (a 3,000-endpoint network writes ~36,000
 * rows a round): the same conditions checked by hand; a row that fails any of them goes through the
 * schema, which throws as before. The row is written as given (the writer reads only the schema's keys).
 */
function checkRankingRow(row: EndpointRankingRow): void {
  const r = row as Record<string, unknown>;
  const c = r.components;
  const fits =
    typeof r.endpointId === "string" &&
    UUID.test(r.endpointId) &&
    isCount(r.rank) &&
    (r.rank as number) > 0 &&
    typeof r.score === "number" &&
    r.score >= 0 &&
    r.score <= 100 &&
    RANKING_STATUSES.has(r.status) &&
    isCount(r.samples) &&
    isCount(r.okSamples) &&
    isNumberOrNull(r.p50Ms) &&
    isNumberOrNull(r.p95Ms) &&
    isNumberOrNull(r.lagBlocks) &&
    (r.availability === null || (typeof r.availability === "number" && r.availability >= 0 && r.availability <= 1)) &&
    isCount(r.headRegressions) &&
    typeof c === "object" &&
    c !== null &&
    Object.getPrototypeOf(c) === Object.prototype;
  if (!fits) EndpointRankingRow.parse(row);
}

export const RankingKey = z.object({
  network: z.string().min(1).max(64),
  window: RankingWindow,
  region: z.string().min(1).max(64),
});
export type RankingKey = z.infer<typeof RankingKey>;

const RANKING_COLUMNS = `rank, score, status, samples, ok_samples, p50_ms, p95_ms, lag_blocks, availability,
  head_regressions, components, updated_at`;
const RANKING_UPDATE_SET = RANKING_COLUMNS.split(",")
  .map((c) => c.trim())
  .map((c) => `${c} = excluded.${c}`)
  .join(", ");

/**
 * Writes one snapshot's rows in place inside the caller's transaction: rows of endpoints no longer in
 * it are deleted, the others inserted or updated on their key (an update keeps the key, so no foreign-key
 * check and no new index entries unless the rank moves). Every row gets `updatedAt`, as readers expect.
 */
async function writeRankingRows(
  sql: SqlClient,
  k: RankingKey,
  parsed: readonly EndpointRankingRow[],
  updatedAt: Date,
): Promise<void> {
  const ids = parsed.map((r) => r.endpointId);
  // The rows as one JSON document (one JSON.stringify; no array literal of escaped JSON strings per column).
  const rows = JSON.stringify(
    parsed.map((r) => ({
      endpoint_id: r.endpointId,
      rank: r.rank,
      score: r.score,
      status: r.status,
      samples: r.samples,
      ok_samples: r.okSamples,
      p50_ms: r.p50Ms,
      p95_ms: r.p95Ms,
      lag_blocks: r.lagBlocks,
      availability: r.availability,
      head_regressions: r.headRegressions,
      components: r.components,
    })),
  );
  // One statement: the rows of endpoints no longer in the snapshot go, the others are upserted (disjoint
  // sets, so the two parts of the statement never touch the same row).
  await sql.query(
    `WITH gone AS (
       DELETE FROM endpoint_rankings WHERE network = $1 AND "window" = $2 AND region = $3
         AND endpoint_id <> ALL($6::uuid[]))
     INSERT INTO endpoint_rankings (network, "window", region, endpoint_id, ${RANKING_COLUMNS})
     SELECT $1, $2, $3, t.endpoint_id, t.rank, t.score, t.status, t.samples, t.ok_samples, t.p50_ms, t.p95_ms,
       t.lag_blocks, t.availability, t.head_regressions, t.components, $5::timestamptz
     FROM json_to_recordset($4::json)
       AS t(endpoint_id uuid, rank int, score float8, status text, samples int, ok_samples int, p50_ms float8,
            p95_ms float8, lag_blocks float8, availability float8, head_regressions int, components jsonb)
     ON CONFLICT (network, "window", region, endpoint_id) DO UPDATE SET ${RANKING_UPDATE_SET}`,
    [k.network, k.window, k.region, rows, updatedAt, ids],
  );
}

/**
 * Replaces the snapshot of one (network, window, region) in one transaction, so readers see the
 * old order or the new one, never a mix. `sql` must be one session (a PoolClient or Client).
 */
export async function replaceEndpointRankings(
  sql: SqlClient,
  key: RankingKey,
  rows: readonly EndpointRankingRow[],
  updatedAt: Date,
): Promise<void> {
  await replaceEndpointRankingSets(sql, [{ key, rows }], updatedAt);
}

/**
 * Replaces several snapshots (a network's windows and regions) in one transaction: readers see every
 * old snapshot or every new one. `sql` must be one session (a PoolClient or Client).
 */
export async function replaceEndpointRankingSets(
  sql: SqlClient,
  sets: ReadonlyArray<{ key: RankingKey; rows: readonly EndpointRankingRow[] }>,
  updatedAt: Date,
): Promise<void> {
  await withRankingWrite(sql, updatedAt, async (writer) => {
    for (const s of sets) writer.add(s.key, s.rows);
  });
}

/**
 * Runs `fn` with a ranking write (beginRankingWrite) and commits after it, as withTransaction does for
 * plain statements: a throw of `fn` (its own computation or a row's check) rolls every snapshot back.
 */
export async function withRankingWrite(
  sql: SqlClient,
  updatedAt: Date,
  fn: (writer: Pick<RankingWrite, "add">) => Promise<void>,
): Promise<void> {
  const writer = await beginRankingWrite(sql, updatedAt);
  try {
    await fn(writer);
  } catch (error) {
    await writer.rollback();
    throw error;
  }
  await writer.commit();
}

/** A transaction that takes snapshots as they are computed (beginRankingWrite). */
export interface RankingWrite {
  /** Checks the rows now and queues the snapshot's statements behind the ones before it. */
  add(key: RankingKey, rows: readonly EndpointRankingRow[]): void;
  /** Waits for every queued snapshot and commits; on any failure rolls back and throws it. */
  commit(): Promise<void>;
  /** Rolls back (after a failure of the caller's own while computing snapshots). */
  rollback(): Promise<void>;
}

/**
 * Opens one transaction on `sql` (one session) for several snapshots, written while the caller computes
 * the next: `add` chains a snapshot's statement behind the ones before it without waiting for it, so
 * the database writes one snapshot while the caller scores the next (the caller yields to the event
 * loop between snapshots so the next statement can start). Readers still see every old snapshot or
 * every new one. A row that fails its check throws from `add` (call `rollback`).
 */
export async function beginRankingWrite(sql: SqlClient, updatedAt: Date): Promise<RankingWrite> {
  await sql.query("BEGIN");
  // One statement at a time on the session: each snapshot's statement starts when the one before ends.
  let tail: Promise<unknown> = Promise.resolve();
  let failure: unknown = null;
  let done = false;
  const rollback = async (): Promise<void> => {
    if (done) return;
    done = true;
    await tail;
    await sql.query("ROLLBACK").catch(() => undefined);
  };
  return {
    add(key, rows) {
      if (done) throw new Error("ranking write already ended");
      if (!Array.isArray(rows)) z.array(EndpointRankingRow).parse(rows);
      for (const row of rows) checkRankingRow(row);
      const k = RankingKey.parse(key);
      // A failed statement fails commit(), never an unhandled rejection while the caller computes; after
      // one, the transaction is aborted and the rest are not sent.
      tail = tail
        .then(() => (failure === null ? writeRankingRows(sql, k, rows, updatedAt) : undefined))
        .catch((error: unknown) => (failure ??= error));
    },
    async commit() {
      if (done) throw new Error("ranking write already ended");
      await tail;
      if (failure !== null) {
        await rollback();
        throw failure;
      }
      done = true;
      await sql.query("COMMIT");
    },
    rollback,
  };
}

/** The stored orders of every snapshot of a network, by `${window}/${region}`: the hysteresis input in one read. */
export async function listRankingOrders(sql: SqlClient, network: string): Promise<Map<string, string[]>> {
  const { rows } = await sql.query(
    `SELECT "window", region, endpoint_id FROM endpoint_rankings WHERE network = $1 ORDER BY "window", region, rank`,
    [z.string().min(1).max(64).parse(network)],
  );
  const out = new Map<string, string[]>();
  for (const r of z.array(z.object({ window: z.string(), region: z.string(), endpoint_id: z.string() })).parse(rows)) {
    const key = `${r.window}/${r.region}`;
    const list = out.get(key);
    if (list) list.push(r.endpoint_id);
    else out.set(key, [r.endpoint_id]);
  }
  return out;
}

/** The stored order (endpoint ids by rank) of one snapshot: the "previous order" for hysteresis. */
export async function getRankingOrder(sql: SqlClient, key: RankingKey): Promise<string[]> {
  const k = RankingKey.parse(key);
  const { rows } = await sql.query(
    `SELECT endpoint_id FROM endpoint_rankings WHERE network = $1 AND "window" = $2 AND region = $3 ORDER BY rank`,
    [k.network, k.window, k.region],
  );
  return z
    .array(z.object({ endpoint_id: z.string() }))
    .parse(rows)
    .map((r) => r.endpoint_id);
}

/** One ranked row joined with its endpoint and capabilities: what the ranked list API needs. */
export const RankedListRow = z
  .object({
    endpoint_id: z.string(),
    rank: dbNumber,
    score: dbNumber,
    status: z.string(),
    samples: dbNumber,
    ok_samples: dbNumber,
    p50_ms: dbNumberOrNull,
    p95_ms: dbNumberOrNull,
    lag_blocks: dbNumberOrNull,
    availability: dbNumberOrNull,
    head_regressions: dbNumber,
    components: z.record(z.string(), z.unknown()),
    updated_at: dbDate,
    region: z.string(),
    window: z.string(),
    url: z.string(),
    name: z.string(),
    provider: z.string().nullable(),
    api_family: z.string(),
    listing_status: z.enum(["probation", "active", "dead"]),
    network: z.string(),
    chain: z.string(),
    cap_checked_at: dbDate.nullable(),
    cap_archive: z.boolean().nullable(),
    cap_methods: z.record(z.string(), z.boolean().nullable()).nullable(),
    cap_coverage: dbNumberOrNull,
    cap_batch: z.boolean().nullable(),
    cap_logs_max_range: dbNumberOrNull,
    cap_websocket: z.boolean().nullable(),
    cap_ws_url: z.string().nullable(),
    cap_ws_new_head_ms: dbNumberOrNull,
    cap_cors: z.boolean().nullable(),
    cap_client_version: z.string().nullable(),
    operator_verified_at: dbDate.nullable(),
    claimed_by: z.string().nullable(),
  })
  .transform((r) => ({
    endpointId: r.endpoint_id,
    rank: r.rank,
    score: r.score,
    scoreStatus: r.status,
    samples: r.samples,
    okSamples: r.ok_samples,
    p50Ms: r.p50_ms,
    p95Ms: r.p95_ms,
    lagBlocks: r.lag_blocks,
    availability: r.availability,
    headRegressions: r.head_regressions,
    components: r.components,
    updatedAt: r.updated_at,
    region: r.region,
    window: r.window,
    url: r.url,
    name: r.name,
    provider: r.provider,
    family: r.api_family,
    listingStatus: r.listing_status,
    network: r.network,
    chain: r.chain,
    capabilities:
      r.cap_checked_at === null
        ? null
        : {
            checkedAt: r.cap_checked_at,
            archive: r.cap_archive,
            methods: r.cap_methods ?? {},
            coverage: r.cap_coverage,
            batch: r.cap_batch,
            logsMaxRange: r.cap_logs_max_range,
            websocket: r.cap_websocket,
            wsUrl: r.cap_ws_url,
            wsNewHeadMs: r.cap_ws_new_head_ms,
            cors: r.cap_cors,
            clientVersion: r.cap_client_version,
          },
    /** When the organization holding the endpoint proved control (DNS or well-known); null: not verified. */
    operatorVerifiedAt: r.operator_verified_at,
    claimedBy: r.claimed_by,
  }));
export type RankedListRow = z.output<typeof RankedListRow>;

/**
 * "Operator verified" of endpoint `e`: when the organization holding it proved control (its claim,
 * verified by a DNS TXT record or the well-known token); null when nobody holds it by such a proof.
 * A node's free-text public URL or an agent's report never counts.
 */
export const OPERATOR_VERIFIED_AT = `(SELECT max(ec.verified_at) FROM endpoint_claims ec
     WHERE ec.endpoint_id = e.id AND ec.organization_id = e.claimed_by_organization_id
       AND ec.verified_method IN ('dns', 'well-known'))`;

const RANKED_SELECT = `
SELECT r.endpoint_id, r.rank, r.score, r.status, r.samples, r.ok_samples, r.p50_ms, r.p95_ms, r.lag_blocks,
  r.availability, r.head_regressions, r.components, r.updated_at, r.region, r."window",
  e.url, e.name, e.provider, e.api_family::text AS api_family, e.status::text AS listing_status,
  n.slug AS network, n.chain_slug AS chain,
  c.checked_at AS cap_checked_at, c.archive AS cap_archive, c.methods AS cap_methods, c.coverage AS cap_coverage,
  c.batch AS cap_batch, c.logs_max_range AS cap_logs_max_range, c.websocket AS cap_websocket, c.ws_url AS cap_ws_url,
  c.ws_new_head_ms AS cap_ws_new_head_ms, c.cors AS cap_cors, c.client_version AS cap_client_version,
  ${OPERATOR_VERIFIED_AT} AS operator_verified_at,
  (SELECT o.name FROM organizations o WHERE o.id = e.claimed_by_organization_id) AS claimed_by
FROM endpoint_rankings r
JOIN public_endpoints e ON e.id = r.endpoint_id
JOIN networks n ON n.id = e.network_id
LEFT JOIN endpoint_capabilities c ON c.endpoint_id = e.id`;

/** The ranked snapshot of one (network, window, region), by rank. */
export async function listRankedRows(sql: SqlClient, key: RankingKey): Promise<RankedListRow[]> {
  const k = RankingKey.parse(key);
  const { rows } = await sql.query(
    `${RANKED_SELECT} WHERE r.network = $1 AND r."window" = $2 AND r.region = $3 ORDER BY r.rank`,
    [k.network, k.window, k.region],
  );
  return rows.map((r) => RankedListRow.parse(r));
}

/** Every snapshot row of one endpoint (each window and region). */
export async function listEndpointRankedRows(sql: SqlClient, endpointId: string): Promise<RankedListRow[]> {
  const { rows } = await sql.query(`${RANKED_SELECT} WHERE r.endpoint_id = $1 ORDER BY r."window", r.region`, [
    endpointId,
  ]);
  return rows.map((r) => RankedListRow.parse(r));
}

/** Regions that have a snapshot in this network and window. */
export async function listRankingRegions(sql: SqlClient, network: string): Promise<string[]> {
  const { rows } = await sql.query(`SELECT DISTINCT region FROM endpoint_rankings WHERE network = $1 ORDER BY region`, [
    network,
  ]);
  return z
    .array(z.object({ region: z.string() }))
    .parse(rows)
    .map((r) => r.region);
}

/** Per network: endpoints listed, by listing status, and the newest snapshot time. */
export interface DirectoryNetworkSummary {
  network: string;
  chain: string;
  name: string;
  families: string[];
  total: number;
  active: number;
  probation: number;
  dead: number;
  updatedAt: Date | null;
}

export async function summarizeDirectoryNetworks(sql: SqlClient): Promise<DirectoryNetworkSummary[]> {
  const { rows } = await sql.query(`
    SELECT n.slug AS network, n.chain_slug AS chain, n.name, ch.api_families::text[] AS families,
      count(e.id)::integer AS total,
      count(e.id) FILTER (WHERE e.status = 'active')::integer AS active,
      count(e.id) FILTER (WHERE e.status = 'probation')::integer AS probation,
      count(e.id) FILTER (WHERE e.status = 'dead')::integer AS dead,
      (SELECT max(r.updated_at) FROM endpoint_rankings r WHERE r.network = n.slug) AS updated_at
    FROM networks n JOIN chains ch ON ch.slug = n.chain_slug
    LEFT JOIN public_endpoints e ON e.network_id = n.id
    GROUP BY n.slug, n.chain_slug, n.name, ch.api_families
    ORDER BY n.chain_slug, n.slug`);
  return z
    .array(
      z.object({
        network: z.string(),
        chain: z.string(),
        name: z.string(),
        families: z.array(z.string()),
        total: z.number(),
        active: z.number(),
        probation: z.number(),
        dead: z.number(),
        updated_at: dbDate.nullable(),
      }),
    )
    .parse(rows)
    .map(({ updated_at, ...r }) => ({ ...r, updatedAt: updated_at }));
}
