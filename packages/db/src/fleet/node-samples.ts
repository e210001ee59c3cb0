import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { float, int2, int4, int8, toColumnArrays } from "../sql/row-values.js";
import {
  metricTuplesOf,
  NODE_SAMPLE_METRIC_CATALOGUE,
  type NodeSampleMetric,
  type NodeSampleMetricKind,
} from "@rpcpulse/domain";

type MetricKind = NodeSampleMetricKind;
type MetricSchema<K extends MetricKind> = z.ZodOptional<
  z.ZodNullable<K extends "time" ? z.ZodCoercedDate : K extends "bool" ? z.ZodBoolean : z.ZodNumber>
>;

/** The row schema of a metric of `kind` (non-negative unless `signed`), null or absent allowed. */
function metricSchemaOf(kind: MetricKind, signed: boolean) {
  if (kind === "time") return z.coerce.date().nullish();
  if (kind === "bool") return z.boolean().nullish();
  const number = kind === "int8" ? int8 : kind === "int4" ? int4 : kind === "int2" ? int2 : float;
  return (signed ? number : number.nonnegative()).nullish();
}

/** The metric fields of a row schema, one per catalogue entry, in catalogue order. */
export function nodeSampleMetricShapeOf<const C extends readonly NodeSampleMetric[]>(
  catalogue: C,
): { [M in C[number] as M["field"]]: MetricSchema<M["kind"]> } {
  return Object.fromEntries(catalogue.map((m) => [m.field, metricSchemaOf(m.kind, m.signed === true)])) as never;
}

/**
 * One agent sample of a node (table node_samples). Every metric is optional: what the agent could
 * not read is null. The metrics are the catalogue's (NODE_SAMPLE_METRIC_CATALOGUE, @rpcpulse/domain,
 * which documents each); around them the row's identity and what the ingest adds per batch.
 */
export const NodeSample = z.object({
  time: z.coerce.date(),
  nodeId: z.string().uuid(),
  ...nodeSampleMetricShapeOf(NODE_SAMPLE_METRIC_CATALOGUE),
  lagBlocks: int4.nullish(),
  /** Agent clock minus server clock at receipt, ms. */
  clockSkewMs: int4.nullish(),
  /** Agent batch sequence number the sample arrived in. */
  batchSeq: int8.nonnegative().nullish(),
});
export type NodeSample = z.infer<typeof NodeSample>;
export type NodeSampleInput = z.input<typeof NodeSample>;

type Field = keyof NodeSample;

/**
 * The per-sample metric columns of node_samples (field, column, kind): the single map behind both write
 * paths, the unnest insert below and the ingest writer's binary COPY, derived once from the catalogue.
 * `time` kind is a timestamptz.
 */
export const NODE_SAMPLE_METRICS = metricTuplesOf(NODE_SAMPLE_METRIC_CATALOGUE);

/** field, column, array type: the mapping used by insert and read (identity, metrics, per-batch columns). */
const COLUMNS: readonly (readonly [Field, string, string])[] = [
  ["time", "time", "timestamptz"],
  ["nodeId", "node_id", "uuid"],
  ...NODE_SAMPLE_METRICS.map(
    ([field, column, kind]) => [field, column, kind === "time" ? "timestamptz" : kind] as const,
  ),
  ["batchSeq", "batch_seq", "int8"],
  ["lagBlocks", "lag_blocks", "int4"],
  ["clockSkewMs", "clock_skew_ms", "int4"],
];

// The statement text is assembled once, at load, from the constant column list above (so the
// unnest arrays, the column list and the zod fields cannot drift apart); no runtime value is
// ever part of it: rows travel as one bound array per column.
const COLUMN_LIST = COLUMNS.map(([, column]) => column).join(", ");
const INSERT_NODE_SAMPLES_SQL = `
WITH input AS (
  SELECT * FROM unnest(${COLUMNS.map(([, , type], i) => `$${i + 1}::${type}[]`).join(", ")})
    AS t(${COLUMN_LIST})
), inserted AS (
  INSERT INTO node_samples (${COLUMN_LIST})
  SELECT ${COLUMN_LIST} FROM input
  ON CONFLICT (node_id, time) DO NOTHING
  RETURNING node_id, time
), latest AS (
  INSERT INTO node_latest (node_id, time)
  SELECT node_id, max(time) FROM inserted GROUP BY node_id
  ON CONFLICT (node_id) DO UPDATE SET time = EXCLUDED.time WHERE node_latest.time < EXCLUDED.time
)
SELECT count(*)::integer AS inserted FROM inserted`;

export const MAX_SAMPLES_PER_INSERT = 10_000;
const InsertedRow = z.object({ inserted: z.number().int() });

/**
 * Insert samples in one statement (one bound array per column through unnest()). Samples whose
 * (nodeId, time) already exists are skipped, so a replayed batch inserts nothing. Also advances
 * node_latest. Returns the number of rows actually inserted.
 */
export async function insertNodeSamples(sql: SqlClient, rows: readonly NodeSampleInput[]): Promise<number> {
  const parsed = z.array(NodeSample).max(MAX_SAMPLES_PER_INSERT).parse(rows);
  if (parsed.length === 0) return 0;
  const params = toColumnArrays(
    parsed,
    COLUMNS.map(([field]) => field),
  );
  const result = await sql.query(INSERT_NODE_SAMPLES_SQL, params);
  return InsertedRow.parse(result.rows[0]).inserted;
}

/** A stored sample as read back: every field present, null where the agent sent none. */
export type NodeSampleRow = { [K in keyof NodeSample]-?: Exclude<NodeSample[K], undefined> };

function toNumberOrNull(value: unknown, column: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  throw new Error(`node_samples.${column}: expected a number, got ${typeof value}`);
}

// COLUMNS split into parallel arrays with the kind as a small code, for the row mapping's loop.
const ROW_FIELDS = COLUMNS.map(([field]) => field);
const ROW_COLUMNS = COLUMNS.map(([, column]) => column);
const ROW_KINDS = COLUMNS.map(([, , type]) =>
  type === "timestamptz" ? 0 : type === "uuid" ? 1 : type === "bool" ? 2 : 3,
);

/**
 * A node_samples row (as the driver returns it) in the NodeSampleRow shape; throws on a value of the
 * wrong type or a row without time or node_id. What NodeSampleRow.parse does, without zod's wrapper
 * (the advisor sweep maps ~60,000 rows a round).
 */
export function toNodeSampleRow(raw: Record<string, unknown>): NodeSampleRow {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < ROW_FIELDS.length; i++) {
    const column = ROW_COLUMNS[i]!;
    const value = raw[column] ?? null;
    const kind = ROW_KINDS[i];
    out[ROW_FIELDS[i]!] =
      value === null
        ? null
        : kind === 0
          ? value instanceof Date
            ? value
            : new Date(String(value))
          : kind === 1
            ? String(value)
            : kind === 2
              ? value === true || value === "t" || value === "true"
              : toNumberOrNull(value, column);
  }
  if (!(out.time instanceof Date) || typeof out.nodeId !== "string")
    throw new Error("node_samples row without time or node_id");
  return out as NodeSampleRow;
}

/**
 * Row schema of node_samples. A hand-written mapping over COLUMNS (toNodeSampleRow) rather than one
 * zod schema per field: the fleet overview parses 1,000 rows x 49 columns and per-field zod
 * parsing cost more than the query itself (46 ms vs 27 ms measured).
 */
export const NodeSampleRow = z
  .custom<Record<string, unknown>>((v) => typeof v === "object" && v !== null, "expected a row object")
  .transform((raw, ctx): NodeSampleRow => {
    try {
      return toNodeSampleRow(raw);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });

const LATEST_SQL = `
SELECT s.*
FROM node_latest l
JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
WHERE l.node_id = ANY($1::uuid[])
ORDER BY s.node_id`;

/**
 * The newest sample of each given node (fleet overview); nodes without samples are absent.
 * One primary-key lookup per node through node_latest.
 */
export async function getLatestNodeSamples(sql: SqlClient, nodeIds: readonly string[]): Promise<NodeSampleRow[]> {
  const ids = z.array(z.string().uuid()).max(10_000).parse(nodeIds);
  if (ids.length === 0) return [];
  const { rows } = await sql.query(LATEST_SQL, [ids]);
  return rows.map((r) => NodeSampleRow.parse(r));
}
