/**
 * Builders for the parts of Grafana's dashboard JSON model we use (schemaVersion 39, read by
 * Grafana 11). Only the fields Grafana needs are written; it fills the rest with defaults.
 */

/** Provisioned in infra/grafana/provisioning/datasources/datasource.yml. */
export const DATASOURCE = { type: "grafana-postgresql-datasource", uid: "rpcpulse-db" } as const;

export const SCHEMA_VERSION = 39;

export interface GridPos {
  h: number;
  w: number;
  x: number;
  y: number;
}

export type Format = "time_series" | "table";

export interface Target {
  refId: string;
  datasource: typeof DATASOURCE;
  editorMode: "code";
  format: Format;
  rawQuery: true;
  rawSql: string;
}

export type Panel = Record<string, unknown> & {
  id: number;
  type: string;
  title: string;
  gridPos: GridPos;
  targets?: Target[];
};

export function target(rawSql: string, format: Format, refId = "A"): Target {
  return { refId, datasource: DATASOURCE, editorMode: "code", format, rawQuery: true, rawSql: rawSql.trim() };
}

interface FieldOverride {
  /** Column name (as the query returns it). */
  field: string;
  properties: Record<string, unknown>;
}

function overrides(list: readonly FieldOverride[] = []) {
  return list.map((o) => ({
    matcher: { id: "byName", options: o.field },
    properties: Object.entries(o.properties).map(([id, value]) => ({ id, value })),
  }));
}

export interface TimeSeriesOptions {
  title: string;
  description: string;
  gridPos: GridPos;
  sql: string;
  unit?: string;
  /** Columns drawn on the right axis, with their own unit. */
  rightAxis?: { fields: readonly string[]; unit: string };
  stack?: boolean;
  overrides?: readonly FieldOverride[];
}

export function timeSeries(id: number, o: TimeSeriesOptions): Panel {
  const right = (o.rightAxis?.fields ?? []).map((field) => ({
    field,
    properties: { "custom.axisPlacement": "right", unit: o.rightAxis?.unit },
  }));
  return {
    id,
    type: "timeseries",
    title: o.title,
    description: o.description,
    datasource: DATASOURCE,
    gridPos: o.gridPos,
    fieldConfig: {
      defaults: {
        unit: o.unit ?? "short",
        custom: {
          drawStyle: "line",
          lineWidth: 1,
          fillOpacity: o.stack ? 20 : 0,
          spanNulls: false,
          showPoints: "never",
          stacking: { mode: o.stack ? "normal" : "none", group: "A" },
        },
      },
      overrides: overrides([...right, ...(o.overrides ?? [])]),
    },
    options: {
      legend: { displayMode: "table", placement: "bottom", calcs: ["lastNotNull", "max"], showLegend: true },
      tooltip: { mode: "multi", sort: "desc" },
    },
    targets: [target(o.sql, "time_series")],
  };
}

export interface TableOptions {
  title: string;
  description: string;
  gridPos: GridPos;
  sql: string;
  overrides?: readonly FieldOverride[];
  sortBy?: { displayName: string; desc: boolean };
}

export function table(id: number, o: TableOptions): Panel {
  return {
    id,
    type: "table",
    title: o.title,
    description: o.description,
    datasource: DATASOURCE,
    gridPos: o.gridPos,
    fieldConfig: {
      defaults: { custom: { align: "auto", filterable: true }, unit: "short" },
      overrides: overrides(o.overrides),
    },
    options: { showHeader: true, cellHeight: "sm", sortBy: o.sortBy ? [o.sortBy] : [] },
    targets: [target(o.sql, "table")],
  };
}

export interface StatOptions {
  title: string;
  description: string;
  gridPos: GridPos;
  sql: string;
  overrides?: readonly FieldOverride[];
}

/** One value per numeric column of a one-row table result. */
export function stat(id: number, o: StatOptions): Panel {
  return {
    id,
    type: "stat",
    title: o.title,
    description: o.description,
    datasource: DATASOURCE,
    gridPos: o.gridPos,
    fieldConfig: {
      defaults: {
        unit: "none",
        color: { mode: "thresholds" },
        thresholds: { mode: "absolute", steps: [{ color: "text", value: null }] },
      },
      overrides: overrides(o.overrides),
    },
    options: {
      reduceOptions: { values: false, calcs: ["lastNotNull"], fields: "" },
      orientation: "auto",
      textMode: "value_and_name",
      colorMode: "value",
      graphMode: "none",
      justifyMode: "auto",
    },
    targets: [target(o.sql, "table")],
  };
}

export function color(name: string) {
  return { mode: "fixed", fixedColor: name };
}

/** Variable of type query (values from SQL: columns __text and __value). */
export function queryVariable(o: { name: string; label: string; sql: string; multi?: boolean; includeAll?: boolean }) {
  const sql = o.sql.trim();
  return {
    type: "query",
    name: o.name,
    label: o.label,
    datasource: DATASOURCE,
    query: sql,
    definition: sql,
    refresh: 1,
    sort: 0,
    multi: o.multi ?? false,
    includeAll: o.includeAll ?? false,
    current: {},
    options: [],
    hide: 0,
  };
}

/** Variable of type custom (fixed options, the first one is the default). */
export function customVariable(o: { name: string; label: string; values: readonly string[]; description: string }) {
  const [first] = o.values;
  return {
    type: "custom",
    name: o.name,
    label: o.label,
    description: o.description,
    query: o.values.join(","),
    current: { selected: true, text: first, value: first },
    options: o.values.map((v, i) => ({ selected: i === 0, text: v, value: v })),
    multi: false,
    includeAll: false,
    hide: 0,
  };
}

export function dashboard(o: {
  uid: string;
  title: string;
  description: string;
  tags: readonly string[];
  time: { from: string; to: string };
  variables: readonly unknown[];
  panels: readonly Panel[];
  links?: readonly unknown[];
}) {
  return {
    uid: o.uid,
    title: o.title,
    description: o.description,
    tags: o.tags,
    editable: false,
    graphTooltip: 1,
    timezone: "browser",
    refresh: "30s",
    time: o.time,
    timepicker: { refresh_intervals: ["10s", "30s", "1m", "5m", "15m"] },
    templating: { list: o.variables },
    annotations: { list: [] },
    links: o.links ?? [],
    panels: o.panels,
    schemaVersion: SCHEMA_VERSION,
    version: 1,
  };
}
