import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbDateOrNull, dbNumberOrNull } from "../sql/row-values.js";

/**
 * The regions that have a live prober: a worker whose heartbeat (worker_heartbeats) is newer than
 * `since` and lists a region probe queue (`probe.<region>`) among the queues it consumes. The
 * heartbeat is the region registry: starting workers with a new PROBE_REGION adds the region, and
 * a region whose workers stopped beating drops out after the caller's staleness.
 */
export async function listActiveProbeRegions(sql: SqlClient, params: { since: Date }): Promise<string[]> {
  const { rows } = await sql.query(
    `SELECT DISTINCT substr(q, 7) AS region
     FROM worker_heartbeats h, unnest(h.queues) AS q
     WHERE h.last_seen_at > $1 AND q LIKE 'probe.%'
     ORDER BY 1`,
    [params.since],
  );
  return z
    .array(z.object({ region: z.string() }))
    .parse(rows)
    .map((r) => r.region);
}

/** One server region's view of a listed (active) endpoint over the consensus window. */
export interface EndpointRegionHeadInput {
  networkId: string;
  endpointId: string;
  claimantOrganizationId: string | null;
  region: string;
  /** The region's newest probe of the endpoint, ok or not: whether it reports, and what it sees now. */
  lastProbeAt: Date;
  lastOk: boolean;
  /** Its newest successful probe with a head (null: none in the window). */
  headBlock: number | null;
  headTime: Date | null;
  /** When that head was read (start + time to first byte). */
  observedAt: Date | null;
}

/**
 * Per (listed endpoint, server region), the newest probe since `since` and the newest successful
 * one with a head: the consensus job needs which regions report an endpoint and which reach it.
 */
export async function listEndpointRegionHeadInputs(
  sql: SqlClient,
  params: { since: Date },
): Promise<EndpointRegionHeadInput[]> {
  const { rows } = await sql.query(
    `WITH latest AS (
       SELECT DISTINCT ON (p.endpoint_id, v.region) p.endpoint_id, v.region, p.ok, p.time
       FROM probe_results p
       JOIN vantage_points v ON v.id = p.vantage_point_id AND v.kind = 'server'
       WHERE p.time >= $1
       ORDER BY p.endpoint_id, v.region, p.time DESC
     ), latest_ok AS (
       SELECT DISTINCT ON (p.endpoint_id, v.region) p.endpoint_id, v.region, p.head_block, p.head_time,
              p.time + make_interval(secs => coalesce(p.ttfb_ms, 0) / 1000.0) AS observed
       FROM probe_results p
       JOIN vantage_points v ON v.id = p.vantage_point_id AND v.kind = 'server'
       WHERE p.time >= $1 AND p.ok AND p.head_block IS NOT NULL
       ORDER BY p.endpoint_id, v.region, p.time DESC
     )
     SELECT e.network_id, l.endpoint_id, e.claimed_by_organization_id, l.region, l.ok, l.time,
            o.head_block, o.head_time, o.observed
     FROM latest l
     JOIN public_endpoints e ON e.id = l.endpoint_id AND e.status = 'active'
     LEFT JOIN latest_ok o ON o.endpoint_id = l.endpoint_id AND o.region = l.region
     ORDER BY l.endpoint_id, l.region`,
    [params.since],
  );
  return z
    .array(
      z.object({
        network_id: z.string(),
        endpoint_id: z.string(),
        claimed_by_organization_id: z.string().nullable(),
        region: z.string(),
        ok: z.boolean(),
        time: dbDate,
        head_block: dbNumberOrNull,
        head_time: dbDateOrNull,
        observed: dbDateOrNull,
      }),
    )
    .parse(rows)
    .map((r) => ({
      networkId: r.network_id,
      endpointId: r.endpoint_id,
      claimantOrganizationId: r.claimed_by_organization_id,
      region: r.region,
      lastProbeAt: r.time,
      lastOk: r.ok,
      headBlock: r.head_block,
      headTime: r.head_time,
      observedAt: r.observed,
    }));
}
