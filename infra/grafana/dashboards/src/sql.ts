/**
 * SQL fragments shared by the dashboards. Every query must run unchanged in both storage modes
 * (TimescaleDB and plain PostgreSQL): same relations and columns, and no TimescaleDB function, so
 * buckets are date_bin() (PostgreSQL >= 14), never time_bucket(). Grafana's $__timeGroup is not
 * used either: with `timescaledb: true` in datasource.yml it expands to time_bucket().
 *
 * Template variables are always interpolated inside quotes ('$node', '$org', '$resolution'):
 * Grafana doubles single quotes in a single-value variable, so a value from the URL cannot end
 * the literal. Multi-value variables use ${var:sqlstring} (each value quoted).
 */

/** Origin of every date_bin() bucket (a Monday, like the plain-mode partition bounds). */
export const ORIGIN = "TIMESTAMPTZ '2000-01-03 00:00:00+00'";

/** Length of the dashboard range. */
export const SPAN = "($__timeTo()::timestamptz - $__timeFrom()::timestamptz)";

export type Relation = "raw" | "1m" | "1h";

/**
 * Which relation a query reads, chosen by the `resolution` variable: `auto` picks by the range
 * like the web app (pickResolution in @rpcpulse/db/sql): raw up to 6 hours, 1-minute rollups up to
 * 7 days, 1-hour rollups beyond. Each branch of a UNION ALL carries its guard; the guards are
 * constant, so PostgreSQL plans the two inactive branches as a false one-time filter.
 */
export function resolutionGuard(relation: Relation): string {
  const auto = {
    raw: `${SPAN} <= interval '6 hours'`,
    "1m": `${SPAN} > interval '6 hours' AND ${SPAN} <= interval '7 days'`,
    "1h": `${SPAN} > interval '7 days'`,
  }[relation];
  return `('$resolution' = '${relation}' OR ('$resolution' = 'auto' AND ${auto}))`;
}

/** Fleet panels read only the rollups: 1-minute up to 7 days, 1-hour beyond. */
export function rollupGuard(relation: "1m" | "1h"): string {
  return relation === "1m" ? `${SPAN} <= interval '7 days'` : `${SPAN} > interval '7 days'`;
}

/**
 * Bucket of a panel point: Grafana's $__interval_ms (from the range and the panel width, at least
 * the datasource's 10 s), rounded up to whole seconds for raw samples, whole minutes for the
 * 1-minute rollups and whole hours for the 1-hour rollups, so a bucket never splits a rollup row.
 */
export function bucketExpr(relation: Relation, column: string): string {
  const unitSeconds = { raw: 1, "1m": 60, "1h": 3600 }[relation];
  const unitMs = unitSeconds * 1000;
  return `date_bin(make_interval(secs => ceil($__interval_ms / ${unitMs}.0) * ${unitSeconds}), ${column}, ${ORIGIN})`;
}

export const RELATION_TABLE: Record<Relation, { node: string; time: string }> = {
  raw: { node: "node_samples", time: "time" },
  "1m": { node: "node_samples_1m", time: "bucket" },
  "1h": { node: "node_samples_1h", time: "bucket" },
};

/** The rollups' 11 latency histogram columns (≤5 … ≤5000 ms, >5000 ms), in order. */
export const HISTOGRAM_COLUMNS = [
  "lat_le_5",
  "lat_le_10",
  "lat_le_25",
  "lat_le_50",
  "lat_le_100",
  "lat_le_250",
  "lat_le_500",
  "lat_le_1000",
  "lat_le_2500",
  "lat_le_5000",
  "lat_gt_5000",
] as const;

/** ARRAY[sum(lat_le_5), …]::float8[]: the histogram of a group of rollup rows. */
export function summedHistogram(prefix = ""): string {
  return `ARRAY[${HISTOGRAM_COLUMNS.map((c) => `sum(${prefix}${c})`).join(", ")}]::float8[]`;
}

/**
 * q-quantile estimated from histogram counts, the same interpolation as estimateQuantile() in
 * @rpcpulse/db/sql: linear inside the bucket holding the rank, clamped to the observed [min, max];
 * NULL when the histogram is empty. `counts` is a float8[] of 11 counts.
 */
export function histogramQuantile(q: number, counts: string, min: string, max: string): string {
  return `(SELECT x.lo + (greatest(x.hi, x.lo) - x.lo) * (${q} * x.total - x.before) / x.n
   FROM (
     SELECT h.i, h.n, greatest(h.lo, ${min}) AS lo, least(coalesce(h.hi, ${max}), ${max}) AS hi,
            sum(h.n) OVER (ORDER BY h.i) - h.n AS before, sum(h.n) OVER () AS total
     FROM unnest(${counts},
                 '{0,5,10,25,50,100,250,500,1000,2500,5000}'::float8[],
                 '{5,10,25,50,100,250,500,1000,2500,5000,NULL}'::float8[]) WITH ORDINALITY AS h(n, lo, hi, i)
   ) x
   WHERE x.n > 0 AND x.before + x.n >= ${q} * x.total
   ORDER BY x.i
   LIMIT 1)`;
}

/** One column of a node time series: its aggregate over raw samples and over rollup rows. */
export interface SeriesColumn {
  alias: string;
  raw: string;
  rollup: string;
}

/** The selected node (uuid); an empty selection (organization without nodes) matches nothing. */
export const NODE_ID = "nullif('$node', '')::uuid";

/**
 * A time series of the selected node: one UNION ALL branch per relation, each guarded by
 * resolutionGuard(), bucketed by bucketExpr(), ordered by time.
 */
export function nodeSeriesSql(columns: readonly SeriesColumn[]): string {
  const branch = (relation: Relation) => {
    const { node: table, time } = RELATION_TABLE[relation];
    const select = columns.map((c) => `  ${relation === "raw" ? c.raw : c.rollup} AS "${c.alias}"`).join(",\n");
    return `SELECT ${bucketExpr(relation, time)} AS time,
${select}
FROM ${table}
WHERE node_id = ${NODE_ID} AND $__timeFilter(${time}) AND ${resolutionGuard(relation)}
GROUP BY 1`;
  };
  return `${branch("raw")}
UNION ALL
${branch("1m")}
UNION ALL
${branch("1h")}
ORDER BY 1`;
}

/** Shorthand for a gauge shown as its maximum per bucket (raw column / rollup *_max column). */
export function maxOf(alias: string, rawColumn: string, rollupColumn: string): SeriesColumn {
  return { alias, raw: `max(${rawColumn})`, rollup: `max(${rollupColumn})` };
}
