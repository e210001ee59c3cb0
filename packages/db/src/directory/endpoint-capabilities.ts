import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumberOrNull } from "../sql/row-values.js";

const Tri = z.boolean().nullable();

/** Latest capability check of an endpoint (table endpoint_capabilities). */
export const EndpointCapabilityRow = z.object({
  endpointId: z.string().uuid(),
  checkedAt: z.coerce.date(),
  archive: Tri,
  methods: z.record(z.string(), Tri),
  coverage: z.number().min(0).max(1).nullable(),
  batch: Tri,
  logsMaxRange: z.number().int().nonnegative().nullable(),
  websocket: Tri,
  wsUrl: z.string().nullable(),
  wsNewHeadMs: z.number().nonnegative().nullable(),
  cors: Tri,
  clientVersion: z.string().max(512).nullable(),
  /** The prober's whole CapabilityReport. */
  report: z.record(z.string(), z.unknown()),
});
export type EndpointCapabilityRow = z.infer<typeof EndpointCapabilityRow>;

/** Replaces the endpoint's capability row with this check. */
export async function upsertEndpointCapability(sql: SqlClient, input: EndpointCapabilityRow): Promise<void> {
  const c = EndpointCapabilityRow.parse(input);
  await sql.query(
    `INSERT INTO endpoint_capabilities (endpoint_id, checked_at, archive, methods, coverage, batch, logs_max_range,
       websocket, ws_url, ws_new_head_ms, cors, client_version, report)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb)
     ON CONFLICT (endpoint_id) DO UPDATE SET checked_at = EXCLUDED.checked_at, archive = EXCLUDED.archive,
       methods = EXCLUDED.methods, coverage = EXCLUDED.coverage, batch = EXCLUDED.batch,
       logs_max_range = EXCLUDED.logs_max_range, websocket = EXCLUDED.websocket, ws_url = EXCLUDED.ws_url,
       ws_new_head_ms = EXCLUDED.ws_new_head_ms, cors = EXCLUDED.cors, client_version = EXCLUDED.client_version,
       report = EXCLUDED.report`,
    [
      c.endpointId,
      c.checkedAt,
      c.archive,
      JSON.stringify(c.methods),
      c.coverage,
      c.batch,
      c.logsMaxRange,
      c.websocket,
      c.wsUrl,
      c.wsNewHeadMs,
      c.cors,
      c.clientVersion,
      JSON.stringify(c.report),
    ],
  );
}

/**
 * Stores a capability row only if the stored one is still the one the caller settled against
 * (`expectedCheckedAt`: its checked_at, or null when there was none). false = another check was
 * stored in between; the caller re-reads and settles again.
 */
export async function replaceEndpointCapability(
  sql: SqlClient,
  input: EndpointCapabilityRow,
  expectedCheckedAt: Date | null,
): Promise<boolean> {
  const c = EndpointCapabilityRow.parse(input);
  const values = [
    c.endpointId,
    c.checkedAt,
    c.archive,
    JSON.stringify(c.methods),
    c.coverage,
    c.batch,
    c.logsMaxRange,
    c.websocket,
    c.wsUrl,
    c.wsNewHeadMs,
    c.cors,
    c.clientVersion,
    JSON.stringify(c.report),
  ];
  const { rows } =
    expectedCheckedAt === null
      ? await sql.query(
          `INSERT INTO endpoint_capabilities (endpoint_id, checked_at, archive, methods, coverage, batch, logs_max_range,
             websocket, ws_url, ws_new_head_ms, cors, client_version, report)
           VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb)
           ON CONFLICT (endpoint_id) DO NOTHING RETURNING endpoint_id`,
          values,
        )
      : await sql.query(
          `UPDATE endpoint_capabilities SET checked_at = $2, archive = $3, methods = $4::jsonb, coverage = $5,
             batch = $6, logs_max_range = $7, websocket = $8, ws_url = $9, ws_new_head_ms = $10, cors = $11,
             client_version = $12, report = $13::jsonb
           WHERE endpoint_id = $1 AND checked_at = $14 RETURNING endpoint_id`,
          [...values, expectedCheckedAt],
        );
  return rows.length === 1;
}

const Row = z
  .object({
    endpoint_id: z.string(),
    checked_at: dbDate,
    archive: Tri,
    methods: z.record(z.string(), Tri),
    coverage: dbNumberOrNull,
    batch: Tri,
    logs_max_range: dbNumberOrNull,
    websocket: Tri,
    ws_url: z.string().nullable(),
    ws_new_head_ms: dbNumberOrNull,
    cors: Tri,
    client_version: z.string().nullable(),
    report: z.record(z.string(), z.unknown()),
  })
  .transform((r): EndpointCapabilityRow => ({
    endpointId: r.endpoint_id,
    checkedAt: r.checked_at,
    archive: r.archive,
    methods: r.methods,
    coverage: r.coverage,
    batch: r.batch,
    logsMaxRange: r.logs_max_range,
    websocket: r.websocket,
    wsUrl: r.ws_url,
    wsNewHeadMs: r.ws_new_head_ms,
    cors: r.cors,
    clientVersion: r.client_version,
    report: r.report,
  }));

/** Capability rows of these endpoints, by endpoint id (endpoints never checked are absent). */
export async function getEndpointCapabilities(
  sql: SqlClient,
  endpointIds: readonly string[],
): Promise<Map<string, EndpointCapabilityRow>> {
  if (endpointIds.length === 0) return new Map();
  const { rows } = await sql.query(`SELECT * FROM endpoint_capabilities WHERE endpoint_id = ANY($1::uuid[])`, [
    [...endpointIds],
  ]);
  const parsed = rows.map((r) => Row.parse(r));
  return new Map(parsed.map((r) => [r.endpointId, r]));
}

/** Endpoints whose last capability check is older than `before` (or that were never checked). */
export async function listEndpointsDueForCapabilityCheck(sql: SqlClient, before: Date): Promise<string[]> {
  const { rows } = await sql.query(
    `SELECT e.id FROM public_endpoints e LEFT JOIN endpoint_capabilities c ON c.endpoint_id = e.id
     WHERE c.checked_at IS NULL OR c.checked_at < $1 ORDER BY c.checked_at NULLS FIRST`,
    [before],
  );
  return z
    .array(z.object({ id: z.string() }))
    .parse(rows)
    .map((r) => r.id);
}
