/**
 * The logic behind every table's sort, search and pages (pure; server components use it, tests too).
 * A table's state lives in the URL search params: shareable links, back button, no client state.
 */

export type SortDir = "asc" | "desc";
export type SortValue = string | number | boolean | null | undefined;

export interface TableState<K extends string> {
  q: string;
  sort: K;
  dir: SortDir;
  page: number;
}

type Params = Record<string, string | string[] | undefined>;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Sort/search/page params with a prefix (two tables on one page keep apart); junk falls back. */
export function parseTableState<K extends string>(
  params: Params,
  opts: { keys: readonly K[]; sort: K; dir?: SortDir; prefix?: string },
): TableState<K> {
  const p = opts.prefix ?? "";
  const sort = first(params[`${p}sort`]);
  const dir = first(params[`${p}dir`]);
  const page = Number(first(params[`${p}page`]));
  return {
    q: (first(params[`${p}q`]) ?? "").trim().slice(0, 100),
    sort: opts.keys.includes(sort as K) ? (sort as K) : opts.sort,
    dir: dir === "asc" || dir === "desc" ? dir : (opts.dir ?? "asc"),
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, 1_000_000) : 1,
  };
}

function compare(a: SortValue, b: SortValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" || typeof b === "boolean") return Number(a) - Number(b);
  return String(a).localeCompare(String(b), "en", { numeric: true, sensitivity: "base" });
}

/**
 * Rows sorted by `value(row)`: empty values (null, undefined, "") always last whatever the
 * direction, ties keep their incoming order (the rows' own ranking stays the tie-break).
 */
export function sortRows<R>(rows: readonly R[], value: (row: R) => SortValue, dir: SortDir): R[] {
  const sign = dir === "asc" ? 1 : -1;
  const empty = (v: SortValue) =>
    v === null || v === undefined || v === "" || (typeof v === "number" && Number.isNaN(v));
  return rows
    .map((row, i) => ({ row, i, v: value(row) }))
    .sort((a, b) => {
      const ea = empty(a.v);
      const eb = empty(b.v);
      if (ea || eb) return ea === eb ? a.i - b.i : ea ? 1 : -1;
      return compare(a.v, b.v) * sign || a.i - b.i;
    })
    .map((x) => x.row);
}

/** Rows whose text contains every word of `q` (case- and accent-insensitive); all rows for "". */
export function searchRows<R>(rows: readonly R[], q: string, text: (row: R) => string): R[] {
  const fold = (s: string) => s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  const words = fold(q).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  return rows.filter((r) => {
    const hay = fold(text(r));
    return words.every((w) => hay.includes(w));
  });
}

export interface Page<R> {
  rows: R[];
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
}

/** One page of rows; a page past the end shows the last page. */
export function paginate<R>(rows: readonly R[], page: number, pageSize: number): Page<R> {
  const pageCount = Math.max(1, Math.ceil(rows.length / pageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  const start = (current - 1) * pageSize;
  return { rows: rows.slice(start, start + pageSize), page: current, pageCount, total: rows.length, pageSize };
}

/**
 * `path` with the current params changed: undefined, "" or a default value removes a param. Any
 * change but the page itself goes back to page 1 (`pageKey`, "page" unless the table is prefixed).
 */
export function tableHref(
  path: string,
  current: Record<string, string | number | string[] | undefined>,
  change: Record<string, string | number | undefined>,
  opts: { defaults?: Record<string, string | number>; pageKey?: string } = {},
): string {
  const pageKey = opts.pageKey ?? "page";
  const merged: Record<string, string | number | string[] | undefined> = { ...current, ...change };
  if (!(pageKey in change)) delete merged[pageKey];
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(merged)) {
    if (v === undefined || v === "" || opts.defaults?.[k] === v || (k === pageKey && Number(v) === 1)) continue;
    for (const one of Array.isArray(v) ? v : [v]) params.append(k, String(one));
  }
  const qs = params.toString();
  return `${path}${qs ? `?${qs}` : ""}`;
}
