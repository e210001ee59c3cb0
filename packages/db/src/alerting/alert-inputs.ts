/**
 * Named, typed reads the alert evaluator needs, one round for many targets at once
 * (`= ANY($1::uuid[])`). They read the same relations in TimescaleDB and plain-PostgreSQL mode.
 */
import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbDateOrNull, dbNumber, dbNumberOrNull } from "../sql/row-values.js";

const NodeAlertRow = z.object({
  node_id: z.string(),
  organization_id: z.string(),
  name: z.string(),
  network: z.string(),
  block_interval_ms: dbNumber,
  created_at: dbDate,
  last_seen_at: dbDateOrNull,
  sample_time: dbDateOrNull,
  lag_blocks: dbNumberOrNull,
  head_age_ms: dbNumberOrNull,
  ephemeral_in_use: dbNumberOrNull,
  ephemeral_range: dbNumberOrNull,
  time_wait_out: dbNumberOrNull,
});

/** The newest sample of each node (through node_latest) plus what the node row knows. */
export interface NodeAlertSnapshot {
  nodeId: string;
  organizationId: string;
  name: string;
  network: string;
  blockIntervalMs: number;
  createdAt: Date;
  lastSeenAt: Date | null;
  sampleTime: Date | null;
  lagBlocks: number | null;
  headAgeMs: number | null;
  ephemeralInUse: number | null;
  ephemeralRange: number | null;
  timeWaitOut: number | null;
}

export async function readNodeAlertSnapshots(sql: SqlClient, nodeIds: readonly string[]): Promise<NodeAlertSnapshot[]> {
  if (nodeIds.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT n.id::text AS node_id, n.organization_id, n.name, nw.slug AS network, nw.block_interval_ms,
            n.created_at, n.last_seen_at, s.time AS sample_time, s.lag_blocks, s.head_age_ms,
            s.ephemeral_in_use, s.ephemeral_range, s.time_wait_out
       FROM nodes n
       JOIN networks nw ON nw.id = n.network_id
       LEFT JOIN node_latest l ON l.node_id = n.id
       LEFT JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
      WHERE n.id = ANY($1::uuid[])`,
    [nodeIds],
  );
  return rows.map((raw) => {
    const r = NodeAlertRow.parse(raw);
    return {
      nodeId: r.node_id,
      organizationId: r.organization_id,
      name: r.name,
      network: r.network,
      blockIntervalMs: r.block_interval_ms,
      createdAt: r.created_at,
      lastSeenAt: r.last_seen_at,
      sampleTime: r.sample_time,
      lagBlocks: r.lag_blocks,
      headAgeMs: r.head_age_ms,
      ephemeralInUse: r.ephemeral_in_use,
      ephemeralRange: r.ephemeral_range,
      timeWaitOut: r.time_wait_out,
    };
  });
}

const P95Row = z.object({ id: z.string(), p95: dbNumberOrNull, samples: dbNumber });

/** p95 of the agent's RPC round trip (total_ms) per node since `since`. */
export async function readNodeLatencyP95(
  sql: SqlClient,
  input: { nodeIds: readonly string[]; since: Date },
): Promise<Map<string, { p95: number | null; samples: number }>> {
  if (input.nodeIds.length === 0) return new Map();
  const { rows } = await sql.query(
    `SELECT node_id::text AS id, percentile_cont(0.95) WITHIN GROUP (ORDER BY total_ms) AS p95, count(*)::int AS samples
       FROM node_samples
      WHERE node_id = ANY($1::uuid[]) AND time > $2 AND total_ms IS NOT NULL
      GROUP BY node_id`,
    [input.nodeIds, input.since],
  );
  return new Map(rows.map((raw) => P95Row.parse(raw)).map((r) => [r.id, { p95: r.p95, samples: r.samples }]));
}

const TopIpRow = z.object({ node_id: z.string(), ip: z.string(), conns: dbNumber });

/** The busiest remote IP of each node's newest sample. */
export async function readNodeTopRemoteIp(
  sql: SqlClient,
  nodeIds: readonly string[],
): Promise<Map<string, { ip: string; conns: number }>> {
  if (nodeIds.length === 0) return new Map();
  const { rows } = await sql.query(
    `SELECT DISTINCT ON (r.node_id) r.node_id::text AS node_id, host(r.ip) AS ip, r.conns
       FROM node_remote_ips r
       JOIN node_latest l ON l.node_id = r.node_id AND r.time = l.time
      WHERE r.node_id = ANY($1::uuid[])
      ORDER BY r.node_id, r.conns DESC`,
    [nodeIds],
  );
  return new Map(rows.map((raw) => TopIpRow.parse(raw)).map((r) => [r.node_id, { ip: r.ip, conns: r.conns }]));
}

const SuggestionCountRow = z.object({ node_id: z.string(), open: dbNumber, title: z.string().nullable() });

/**
 * Open (or acknowledged) tuning suggestions of high or critical severity per node. Reads the
 * advisor's table when it exists (migration 0005_advisor); without it every node has none.
 */
export async function readHighSeveritySuggestions(
  sql: SqlClient,
  nodeIds: readonly string[],
): Promise<Map<string, { open: number; title: string | null }>> {
  if (nodeIds.length === 0) return new Map();
  const { rows: exists } = await sql.query(`SELECT to_regclass('public.suggestions') IS NOT NULL AS present`);
  if (!(exists[0] as { present: boolean } | undefined)?.present) return new Map();
  const { rows } = await sql.query(
    `SELECT node_id::text AS node_id, count(*)::int AS open, min(title) AS title
       FROM suggestions
      WHERE node_id = ANY($1::uuid[]) AND state::text IN ('open', 'acknowledged')
        AND severity::text IN ('high', 'critical')
      GROUP BY node_id`,
    [nodeIds],
  );
  return new Map(
    rows.map((raw) => SuggestionCountRow.parse(raw)).map((r) => [r.node_id, { open: r.open, title: r.title }]),
  );
}

const EndpointMetaRow = z.object({
  id: z.string(),
  name: z.string(),
  network: z.string(),
  block_interval_ms: dbNumber,
});

const VantageRow = z.object({
  endpoint_id: z.string(),
  vantage_point_id: z.string(),
  vantage_name: z.string().nullable(),
  probes: dbNumber,
  ok_probes: dbNumber,
});

export interface EndpointVantageProbes {
  vantagePointId: string;
  vantageName: string | null;
  probes: number;
  okProbes: number;
}

export interface EndpointAlertSnapshot {
  endpointId: string;
  name: string;
  network: string;
  blockIntervalMs: number;
  vantages: EndpointVantageProbes[];
  /** p95 of total_ms of successful probes in the window, all vantage points together. */
  p95Ms: number | null;
}

/** Probe outcomes per vantage point since `since`, and the p95 of successful probes. */
export async function readEndpointAlertSnapshots(
  sql: SqlClient,
  input: { endpointIds: readonly string[]; since: Date },
): Promise<EndpointAlertSnapshot[]> {
  if (input.endpointIds.length === 0) return [];
  const [meta, vantages, p95] = await Promise.all([
    sql.query(
      `SELECT e.id::text AS id, e.name, nw.slug AS network, nw.block_interval_ms
         FROM public_endpoints e JOIN networks nw ON nw.id = e.network_id
        WHERE e.id = ANY($1::uuid[])`,
      [input.endpointIds],
    ),
    sql.query(
      `SELECT p.endpoint_id::text AS endpoint_id, p.vantage_point_id::text AS vantage_point_id, v.name AS vantage_name,
              count(*)::int AS probes, (count(*) FILTER (WHERE p.ok))::int AS ok_probes
         FROM probe_results p
         LEFT JOIN vantage_points v ON v.id = p.vantage_point_id
        WHERE p.endpoint_id = ANY($1::uuid[]) AND p.time > $2
        GROUP BY p.endpoint_id, p.vantage_point_id, v.name`,
      [input.endpointIds, input.since],
    ),
    sql.query(
      `SELECT endpoint_id::text AS id, percentile_cont(0.95) WITHIN GROUP (ORDER BY total_ms) AS p95, count(*)::int AS samples
         FROM probe_results
        WHERE endpoint_id = ANY($1::uuid[]) AND time > $2 AND ok AND total_ms IS NOT NULL
        GROUP BY endpoint_id`,
      [input.endpointIds, input.since],
    ),
  ]);
  const byEndpoint = new Map<string, EndpointVantageProbes[]>();
  for (const raw of vantages.rows) {
    const r = VantageRow.parse(raw);
    const list = byEndpoint.get(r.endpoint_id) ?? [];
    list.push({
      vantagePointId: r.vantage_point_id,
      vantageName: r.vantage_name,
      probes: r.probes,
      okProbes: r.ok_probes,
    });
    byEndpoint.set(r.endpoint_id, list);
  }
  const p95ById = new Map(p95.rows.map((raw) => P95Row.parse(raw)).map((r) => [r.id, r.p95]));
  return meta.rows.map((raw) => {
    const m = EndpointMetaRow.parse(raw);
    return {
      endpointId: m.id,
      name: m.name,
      network: m.network,
      blockIntervalMs: m.block_interval_ms,
      vantages: byEndpoint.get(m.id) ?? [],
      p95Ms: p95ById.get(m.id) ?? null,
    };
  });
}
