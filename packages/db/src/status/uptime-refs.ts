import { z } from "zod";
import { OrgShard, orgShardCondition, orgShardParams } from "../sql/org-shards.js";
import type { SqlClient } from "../sql/sql-client.js";
import type { UptimeKind } from "./uptime-days.js";
import { dbDate, dbNumber } from "../sql/row-values.js";

/**
 * The nodes, endpoints, producers and consensus clients (by node) listed on published (public) status pages whose status_uptime_days
 * cache lacks a finished day of the window: what the worker's uptime refresh fills ahead of
 * visitors. A ref's days start at its creation (UTC day), as on the public page.
 */

export const StaleUptimeRefQuery = z.object({
  /** First day of the window (UTC midnight). */
  from: z.date(),
  /** Today (UTC midnight): finished days are [from, today). */
  today: z.date(),
  limit: z.number().int().min(1).max(2_000),
  /** Only pages of the organizations in this shard (a sharded sweep); all pages without one. */
  shard: OrgShard.optional(),
});
export type StaleUptimeRefQuery = z.infer<typeof StaleUptimeRefQuery>;

export interface UptimeRefRow {
  kind: UptimeKind;
  refId: string;
  /** Node/endpoint creation (the first day it gets a bar). */
  createdAt: Date;
}

export interface StaleUptimeRefs {
  /** Distinct refs listed on public pages. */
  listed: number;
  /** Of those, refs missing at least one finished day. */
  stale: number;
  /** The first `limit` stale refs (by id). */
  refs: UptimeRefRow[];
}

const LISTED_REFS_CTE = `
WITH listed AS (
  SELECT DISTINCT c.kind::text AS kind,
         CASE c.kind::text WHEN 'node' THEN c.node_id WHEN 'endpoint' THEN c.endpoint_id
           WHEN 'consensus_client' THEN c.beacon_node_id ELSE c.producer_id END AS ref_id,
         CASE c.kind::text WHEN 'node' THEN n.created_at WHEN 'endpoint' THEN e.created_at
           WHEN 'consensus_client' THEN bn.created_at ELSE pr.created_at END AS created_at
  FROM status_components c
  JOIN status_pages p ON p.id = c.page_id AND p.is_public
  LEFT JOIN nodes n ON c.kind = 'node' AND n.id = c.node_id
  LEFT JOIN public_endpoints e ON c.kind = 'endpoint' AND e.id = c.endpoint_id
  LEFT JOIN producers pr ON c.kind::text = 'producer' AND pr.id = c.producer_id
  LEFT JOIN nodes bn ON c.kind::text = 'consensus_client' AND bn.id = c.beacon_node_id
  WHERE ((c.kind = 'node' AND n.id IS NOT NULL) OR (c.kind = 'endpoint' AND e.id IS NOT NULL)
         OR (c.kind::text = 'producer' AND pr.id IS NOT NULL) OR (c.kind::text = 'consensus_client' AND bn.id IS NOT NULL))
    AND ${orgShardCondition("p.organization_id", "$4", "$5")}
), stale AS (
  SELECT l.kind, l.ref_id, l.created_at
  FROM listed l
  CROSS JOIN LATERAL (
    SELECT greatest(($1::timestamptz AT TIME ZONE 'UTC')::date, (l.created_at AT TIME ZONE 'UTC')::date) AS first_day,
           ($2::timestamptz AT TIME ZONE 'UTC')::date AS today
  ) w
  WHERE (SELECT count(*) FROM status_uptime_days u
         WHERE u.ref_id = l.ref_id AND u.kind::text = l.kind AND u.day >= w.first_day AND u.day < w.today) < (w.today - w.first_day)
)`;

const Counts = z.object({ listed: dbNumber, stale: dbNumber });
const Row = z
  .object({
    kind: z.enum(["node", "endpoint", "producer", "consensus_client"]),
    ref_id: z.string(),
    created_at: dbDate,
  })
  .transform((r) => ({ kind: r.kind, refId: r.ref_id, createdAt: r.created_at }));

/** Refs of public pages with a finished day of [from, today) missing from the cache (see file comment). */
export async function listStaleUptimeRefs(sql: SqlClient, params: StaleUptimeRefQuery): Promise<StaleUptimeRefs> {
  const p = StaleUptimeRefQuery.parse(params);
  const { rows } = await sql.query(
    `${LISTED_REFS_CTE}
     SELECT (SELECT count(*) FROM listed) AS listed, (SELECT count(*) FROM stale) AS stale,
            coalesce((SELECT json_agg(s ORDER BY s.ref_id)
                      FROM (SELECT kind, ref_id::text AS ref_id, created_at FROM stale ORDER BY ref_id LIMIT $3) s),
                     '[]'::json) AS refs`,
    [p.from, p.today, p.limit, ...orgShardParams(p.shard)],
  );
  const row = rows[0] as { listed: unknown; stale: unknown; refs: unknown };
  const counts = Counts.parse(row);
  return { ...counts, refs: z.array(Row).parse(row.refs) };
}
