/**
 * What Grafana 11 does to a PostgreSQL panel's rawSql before it reaches the database, in its order:
 *
 * 1. Frontend, template variables (TemplateSrv.replace with the SQL datasource's interpolateVariable):
 *    `$var`, `${var}`, `${var:csv}`, `${var:sqlstring}`, and the built-ins `$__interval` /
 *    `$__interval_ms`. Without a format, a single-value string has its single quotes doubled and is
 *    otherwise inserted as is; a multi-value or include-all variable becomes 'a','b' (quoted, joined).
 *    Names that are not variables (`$__timeFilter`) are left alone.
 * 2. Backend, sqleng Interpolate: `$__interval_ms`, `$__interval` (gtime.FormatInterval),
 *    `$__unixEpochFrom()`, `$__unixEpochTo()`.
 * 3. Backend, the postgres macro engine: every `$name(args)`; args split on ",", trimmed.
 *    `$__timeFilter(c)` -> c BETWEEN '<from RFC3339Nano>' AND '<to>'; `$__timeFrom()`/`$__timeTo()` ->
 *    the quoted timestamp; `$__timeGroup(c, '5m'[, fill])` -> time_bucket('300.000s',c) when the
 *    datasource has `timescaledb: true`, else floor(extract(epoch from c)/300)*300; a `$__timeGroup`
 *    directly followed by "," gets ` AS "time"` (pre-5.3 compatibility); `$__timeGroupAlias` always.
 *    An unknown macro is an error, as in Grafana.
 * Only what the dashboards can use is implemented; anything else throws rather than pass silently.
 */

export interface TimeRange {
  from: Date;
  to: Date;
}

export interface VariableValue {
  /** A string (single value) or the selected values of a multi-value / include-all variable. */
  value: string | readonly string[];
  multi?: boolean;
  includeAll?: boolean;
}

export interface InterpolateOptions {
  range: TimeRange;
  /** The panel's $__interval in ms (see calculateIntervalMs). */
  intervalMs: number;
  variables: Record<string, VariableValue>;
  /** jsonData.timescaledb of the provisioned datasource. */
  timescaledb: boolean;
}

/** Grafana's variable syntax: $name, [[name(:format)]], ${name(.path)(:format)}. */
const VARIABLE_RE = /\$(\w+)|\[\[(\w+?)(?::(\w+))?\]\]|\$\{(\w+)(?:\.([^:^}]+))?(?::([^}]+))?\}/g;
/** The postgres macro engine's expression: $identifier(args without ")"). */
const MACRO_RE = /\$([_a-zA-Z0-9]+)\(([^)]*)\)/g;

const quoteLiteral = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** Go's time.Format(time.RFC3339Nano) of a UTC instant: fraction without trailing zeros. */
export function rfc3339Nano(d: Date): string {
  return d.toISOString().replace(/\.(\d*?)0*Z$/, (_m, frac: string) => (frac ? `.${frac}Z` : "Z"));
}

/** gtime.FormatInterval: the largest whole unit (y, d, h, m, s, ms). */
export function formatInterval(ms: number): string {
  const units: readonly [number, string][] = [
    [365 * 86_400_000, "y"],
    [86_400_000, "d"],
    [3_600_000, "h"],
    [60_000, "m"],
    [1000, "s"],
    [1, "ms"],
  ];
  for (const [size, unit] of units) if (ms >= size) return `${Math.floor(ms / size)}${unit}`;
  return "1ms";
}

/** gtime.ParseInterval for the forms a dashboard writes: <n>ms|s|m|h|d|w. */
function parseIntervalSeconds(text: string): number {
  const m = /^(\d+)(ms|s|m|h|d|w)$/.exec(text);
  if (!m) throw new Error(`error parsing interval ${text}`);
  const n = Number(m[1]);
  const seconds = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 }[
    m[2] as "ms" | "s" | "m" | "h" | "d" | "w"
  ];
  return n * seconds;
}

/**
 * The panel interval Grafana sends: range / maxDataPoints rounded to a "nice" step (the ladder of
 * Grafana's roundInterval), at least the datasource's minimum interval (timeInterval, 10 s here).
 */
export function calculateIntervalMs(range: TimeRange, maxDataPoints = 1000, minIntervalMs = 10_000): number {
  const raw = (range.to.getTime() - range.from.getTime()) / maxDataPoints;
  const ladder: readonly [number, number][] = [
    [15_000, 10_000],
    [25_000, 20_000],
    [45_000, 30_000],
    [90_000, 60_000],
    [180_000, 120_000],
    [450_000, 300_000],
    [1_050_000, 600_000],
    [2_100_000, 1_200_000],
    [5_400_000, 3_600_000],
    [9_000_000, 7_200_000],
    [16_200_000, 10_800_000],
    [32_400_000, 21_600_000],
    [86_400_000, 43_200_000],
    [604_800_000, 86_400_000],
  ];
  const rounded = ladder.find(([below]) => raw < below)?.[1] ?? 604_800_000;
  return Math.max(rounded, minIntervalMs);
}

function formatVariable(name: string, v: VariableValue, format: string | undefined): string {
  const values = typeof v.value === "string" ? null : v.value;
  switch (format) {
    case undefined:
      // SqlDatasource.interpolateVariable
      if (values) return values.map(quoteLiteral).join(",");
      return v.multi || v.includeAll ? quoteLiteral(v.value as string) : (v.value as string).replace(/'/g, "''");
    case "csv":
      return values ? values.join(",") : (v.value as string);
    case "sqlstring":
      return values ? values.map(quoteLiteral).join(",") : quoteLiteral(v.value as string);
    default:
      throw new Error(`variable format ${format} (in \${${name}:${format}}) is not supported by this test`);
  }
}

/** Step 1: the frontend's template variable replacement. */
export function replaceVariables(sql: string, o: InterpolateOptions): string {
  const builtins: Record<string, VariableValue> = {
    __interval: { value: formatInterval(o.intervalMs) },
    __interval_ms: { value: String(o.intervalMs) },
  };
  return sql.replace(
    VARIABLE_RE,
    (match, plain?: string, bracket?: string, bracketFmt?: string, braced?: string, path?: string, fmt?: string) => {
      const name = plain ?? bracket ?? braced ?? "";
      const variable = o.variables[name] ?? builtins[name];
      if (!variable) return match; // not a variable: a macro such as $__timeFilter, left to the backend
      if (path) throw new Error(`field path \${${name}.${path}} is not supported by this test`);
      return formatVariable(name, variable, bracketFmt ?? fmt);
    },
  );
}

/** Steps 2 and 3: sqleng Interpolate and the postgres macro engine. */
export function expandMacros(sql: string, o: InterpolateOptions): string {
  let out = sql
    .replaceAll("$__interval_ms", String(o.intervalMs))
    .replaceAll("$__interval", formatInterval(o.intervalMs))
    .replaceAll("$__unixEpochFrom()", String(Math.floor(o.range.from.getTime() / 1000)))
    .replaceAll("$__unixEpochTo()", String(Math.floor(o.range.to.getTime() / 1000)));
  const from = `'${rfc3339Nano(o.range.from)}'`;
  const to = `'${rfc3339Nano(o.range.to)}'`;
  const input = out;
  const timeGroup = (args: string[]) => {
    const [column, interval] = args;
    if (!column || !interval)
      throw new Error("macro __timeGroup needs time column and interval and optional fill value");
    const seconds = parseIntervalSeconds(interval.replace(/'/g, ""));
    return o.timescaledb
      ? `time_bucket('${seconds.toFixed(3)}s',${column})`
      : `floor(extract(epoch from ${column})/${seconds})*${seconds}`;
  };
  out = input.replace(MACRO_RE, (match: string, name: string, argText: string) => {
    const args = argText.split(",").map((a) => a.trim());
    const column = () => {
      if (!args[0]) throw new Error(`missing time column argument for macro ${name}`);
      return args[0];
    };
    switch (name) {
      case "__timeFilter":
        return `${column()} BETWEEN ${from} AND ${to}`;
      case "__timeFrom":
        return from;
      case "__timeTo":
        return to;
      case "__timeGroup": {
        // Grafana looks at the character after the first occurrence of the same macro text.
        const at = input.indexOf(match);
        const alias = at >= 0 && input[at + match.length] === ",";
        return alias ? `${timeGroup(args)} AS "time"` : timeGroup(args);
      }
      case "__timeGroupAlias":
        return `${timeGroup(args)} AS "time"`;
      default:
        throw new Error(`unknown macro "${name}"`);
    }
  });
  return out;
}

/** rawSql as Grafana would send it to PostgreSQL. Throws when anything is left unexpanded. */
export function interpolate(sql: string, o: InterpolateOptions): string {
  const out = expandMacros(replaceVariables(sql, o), o);
  const left = /\$\{?[A-Za-z_]\w*|\[\[\w+/.exec(out);
  if (left) throw new Error(`unexpanded variable or macro ${left[0]} in: ${out}`);
  return out;
}
