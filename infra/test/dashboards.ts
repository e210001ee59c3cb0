/**
 * Reading the provisioned dashboards as Grafana would: the JSON files, the datasource they must
 * reference, every SQL they send (panel targets and query variables), and checks of the JSON
 * structure and of a query's result against what its panel needs.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";

const INFRA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DASHBOARDS_DIR = path.join(INFRA, "grafana", "dashboards");
export const DATASOURCE_FILE = path.join(INFRA, "grafana", "provisioning", "datasources", "datasource.yml");
export const ROLE_FILE = path.join(INFRA, "postgres", "grafana-readonly-role.sql");

/** Loose view of the JSON model: only what the checks read. */
export interface Dashboard {
  uid?: string;
  title?: string;
  editable?: boolean;
  schemaVersion?: number;
  templating?: { list?: Variable[] };
  panels?: Panel[];
}
export interface Variable {
  type: string;
  name: string;
  query?: string | { rawSql?: string; query?: string };
  datasource?: { type?: string; uid?: string };
  multi?: boolean;
  includeAll?: boolean;
  options?: { value: string }[];
}
export interface Target {
  refId?: string;
  datasource?: { type?: string; uid?: string };
  format?: string;
  rawQuery?: boolean;
  rawSql?: string;
}
export interface Panel {
  id?: number;
  type?: string;
  title?: string;
  gridPos?: { h?: number; w?: number; x?: number; y?: number };
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
  panels?: Panel[];
  fieldConfig?: { overrides?: { matcher?: { id?: string; options?: unknown } }[] };
}

export interface ProvisionedDatasource {
  uid: string;
  type: string;
  timescaledb: boolean;
}

export function loadDatasource(): ProvisionedDatasource {
  const doc = parseYaml(readFileSync(DATASOURCE_FILE, "utf8")) as {
    datasources: { uid: string; type: string; jsonData?: { timescaledb?: boolean } }[];
  };
  const [ds] = doc.datasources;
  if (!ds || doc.datasources.length !== 1) throw new Error("datasource.yml must provision exactly one datasource");
  return { uid: ds.uid, type: ds.type, timescaledb: ds.jsonData?.timescaledb === true };
}

export function loadDashboards(): Map<string, Dashboard> {
  const files = readdirSync(DASHBOARDS_DIR).filter((f) => f.endsWith(".json"));
  return new Map(files.map((f) => [f, JSON.parse(readFileSync(path.join(DASHBOARDS_DIR, f), "utf8")) as Dashboard]));
}

/** Panels including those inside (collapsed) rows. */
export function allPanels(d: Dashboard): Panel[] {
  return (d.panels ?? []).flatMap((p) => [p, ...(p.panels ?? [])]);
}

export function variableSql(v: Variable): string | null {
  if (v.type !== "query") return null;
  if (typeof v.query === "string") return v.query;
  return v.query?.rawSql ?? v.query?.query ?? null;
}

/** Structural problems of a dashboard (empty when it is fine). */
export function validateDashboard(d: Dashboard, ds: ProvisionedDatasource): string[] {
  const problems: string[] = [];
  const sameDs = (ref: { type?: string; uid?: string } | undefined, where: string) => {
    if (ref?.uid !== ds.uid || ref?.type !== ds.type)
      problems.push(`${where}: datasource ${JSON.stringify(ref)} is not the provisioned ${ds.type}/${ds.uid}`);
  };
  if (!d.uid || !/^[a-zA-Z0-9_-]{1,40}$/.test(d.uid)) problems.push(`uid ${String(d.uid)} is missing or invalid`);
  if (!d.title) problems.push("title is missing");
  if (d.editable !== false) problems.push("editable must be false (provisioned read-only)");
  if (typeof d.schemaVersion !== "number" || d.schemaVersion < 36 || d.schemaVersion > 41)
    problems.push(`schemaVersion ${String(d.schemaVersion)} is not one Grafana 11 reads as current`);

  const ids = new Set<number>();
  const cells: { title: string; x: number; y: number; w: number; h: number }[] = [];
  for (const p of allPanels(d)) {
    const name = `panel ${String(p.id)} "${String(p.title)}"`;
    if (typeof p.id !== "number") problems.push(`${name}: id must be a number`);
    else if (ids.has(p.id)) problems.push(`${name}: duplicate panel id`);
    else ids.add(p.id);
    const g = p.gridPos;
    const ok = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;
    if (!g || !ok(g.x) || !ok(g.y) || !ok(g.w) || !ok(g.h) || g.w < 1 || g.h < 1 || g.x + g.w > 24)
      problems.push(`${name}: gridPos ${JSON.stringify(g)} must be integers inside the 24-column grid`);
    else cells.push({ title: name, x: g.x, y: g.y, w: g.w, h: g.h });
    if (p.type === "row") continue;
    if (!p.title) problems.push(`${name}: title is missing`);
    sameDs(p.datasource, name);
    if (!p.targets?.length) problems.push(`${name}: no targets`);
    for (const t of p.targets ?? []) {
      sameDs(t.datasource, `${name} target ${String(t.refId)}`);
      if (!t.rawSql?.trim() || t.rawQuery !== true) problems.push(`${name}: target ${String(t.refId)} has no raw SQL`);
      if (t.format !== "table" && t.format !== "time_series")
        problems.push(`${name}: format ${String(t.format)} is not table or time_series`);
      if (p.type === "timeseries" && t.format !== "time_series")
        problems.push(`${name}: time series needs format time_series`);
    }
  }
  for (let i = 0; i < cells.length; i++)
    for (let j = i + 1; j < cells.length; j++) {
      const a = cells[i]!;
      const b = cells[j]!;
      if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h)
        problems.push(`${a.title} and ${b.title} overlap`);
    }
  const names = new Set<string>();
  for (const v of d.templating?.list ?? []) {
    if (names.has(v.name)) problems.push(`variable ${v.name} is defined twice`);
    names.add(v.name);
    if (v.type === "query") {
      sameDs(v.datasource, `variable ${v.name}`);
      if (!variableSql(v)?.trim()) problems.push(`variable ${v.name} has no query`);
    }
  }
  return problems;
}

export type ColumnKind = "time" | "number" | "text" | "bool";
/** PostgreSQL type OIDs the dashboards return, by how Grafana treats them. */
const KIND_BY_OID: Record<number, ColumnKind> = {
  1082: "time",
  1114: "time",
  1184: "time",
  20: "number",
  21: "number",
  23: "number",
  700: "number",
  701: "number",
  1700: "number",
  18: "text",
  19: "text",
  25: "text",
  1043: "text",
  2950: "text",
  869: "text",
  16: "bool",
};

export interface QueryResult {
  fields: { name: string; dataTypeID: number }[];
  rows: unknown[][];
}

export function columnKinds(r: QueryResult): [string, ColumnKind | `oid ${number}`][] {
  return r.fields.map((f) => [f.name, KIND_BY_OID[f.dataTypeID] ?? `oid ${f.dataTypeID}`]);
}

const epoch = (v: unknown) => (v instanceof Date ? v.getTime() : new Date(String(v)).getTime());

/**
 * Problems of a result for its panel: `expected` lists the columns (in order) with their kinds;
 * a time series must also have the time column first, numeric values, an optional text `metric`,
 * and points in strictly increasing time per series; field overrides must name real columns.
 */
export function checkResult(
  panel: Panel,
  target: Target,
  r: QueryResult,
  expected: readonly (readonly [string, ColumnKind])[],
  { requireRows }: { requireRows: boolean },
): string[] {
  const problems: string[] = [];
  const got = columnKinds(r);
  const names = got.map(([n]) => n);
  if (new Set(names).size !== names.length) problems.push(`duplicate column names ${names.join(", ")}`);
  const want = expected.map(([n, k]) => `${n}:${k}`).join(", ");
  const have = got.map(([n, k]) => `${n}:${k}`).join(", ");
  if (want !== have) problems.push(`columns are [${have}], the panel expects [${want}]`);
  if (requireRows && r.rows.length === 0) problems.push("no rows");
  if (target.format === "time_series") {
    if (names[0] !== "time" || got[0]?.[1] !== "time")
      problems.push("a time series needs a timestamp column `time` first");
    const metricAt = names.indexOf("metric");
    for (const [n, k] of got.slice(1))
      if (n !== "metric" && k !== "number") problems.push(`value column ${n} is ${k}, not numeric`);
    const last = new Map<unknown, number>();
    for (const row of r.rows) {
      const key = metricAt >= 0 ? row[metricAt] : "";
      const t = epoch(row[0]);
      if (!Number.isFinite(t)) problems.push(`time ${String(row[0])} is not a timestamp`);
      const prev = last.get(key);
      if (prev !== undefined && t <= prev) {
        problems.push(`series ${String(key)}: time ${new Date(t).toISOString()} is not after the previous point`);
        break;
      }
      last.set(key, t);
    }
  }
  for (const o of panel.fieldConfig?.overrides ?? []) {
    if (o.matcher?.id === "byName" && !names.includes(String(o.matcher.options)))
      problems.push(`override for field "${String(o.matcher.options)}" matches no column`);
  }
  return problems;
}
