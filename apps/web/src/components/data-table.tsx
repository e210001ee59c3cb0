import type { ReactNode } from "react";
import type { SortDir } from "@/lib/table-query.js";

/**
 * The shared table of the app: plain server-rendered HTML (no client JS per row, so 1,000-row
 * tables stay cheap), sortable headers as links that keep the rest of the URL state, a search box
 * and a pager as GET forms/links. The logic lives in lib/table-query.ts.
 */

export interface DataColumn {
  key: string;
  label: ReactNode;
  /** False for columns without a meaningful order (buttons). */
  sortable?: boolean;
  numeric?: boolean;
  title?: string;
  /** Header read by screen readers only (an actions column). */
  srOnly?: boolean;
}

/** Columns that are plain labels (each label is its key); those named in `numeric` are right-aligned numbers. */
export function labelColumns(labels: readonly string[], numeric: readonly string[] = []): DataColumn[] {
  return labels.map((label) =>
    numeric.includes(label) ? { key: label, label, numeric: true } : { key: label, label },
  );
}

/** The last column of a table whose rows carry buttons: a header for screen readers only. */
export const ACTIONS_COLUMN: DataColumn = { key: "actions", label: "Actions", srOnly: true };

export function DataTable(props: {
  columns: DataColumn[];
  /** The active sort; headers link to `sortHref(key, dir)`. Without it no header is a link. */
  sort?: { key: string; dir: SortDir; href: (key: string, dir: SortDir) => string };
  caption?: string;
  testId?: string;
  className?: string;
  /** Shown instead of the table when `rowCount` is 0. */
  empty?: ReactNode;
  rowCount?: number;
  children: ReactNode;
}) {
  if (props.rowCount === 0 && props.empty !== undefined) return <>{props.empty}</>;
  const { sort } = props;
  return (
    <div className="table-scroll">
      <table className={`data${props.className ? ` ${props.className}` : ""}`} data-testid={props.testId}>
        {props.caption ? <caption className="sr-only">{props.caption}</caption> : null}
        <thead>
          <tr>
            {props.columns.map((c) => {
              const active = sort?.key === c.key;
              const next: SortDir = active && sort?.dir === "asc" ? "desc" : "asc";
              const label = c.srOnly ? <span className="sr-only">{c.label}</span> : c.label;
              return (
                <th
                  key={c.key}
                  scope="col"
                  className={c.numeric ? "num" : c.srOnly ? "actions" : undefined}
                  title={c.title}
                  aria-sort={active ? (sort?.dir === "asc" ? "ascending" : "descending") : undefined}
                >
                  {sort && c.sortable !== false && !c.srOnly ? (
                    <a className="dt-sort" href={sort.href(c.key, next)}>
                      {label}
                    </a>
                  ) : (
                    label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** "Showing 101–200 of 10,000" with previous/next links; nothing when everything fits on one page. */
export function Pager(props: {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  href: (page: number) => string;
  label: string;
  testId?: string;
}) {
  const from = props.total === 0 ? 0 : (props.page - 1) * props.pageSize + 1;
  const to = Math.min(props.total, props.page * props.pageSize);
  return (
    <nav className="dt-pager" aria-label={`${props.label} pages`} data-testid={props.testId}>
      <span className="muted">
        {from.toLocaleString("en-US")}–{to.toLocaleString("en-US")} of {props.total.toLocaleString("en-US")}
      </span>
      {props.pageCount > 1 ? (
        <>
          {props.page > 1 ? (
            <a href={props.href(props.page - 1)} rel="prev">
              ← Previous
            </a>
          ) : (
            <span className="dt-off">← Previous</span>
          )}
          <span>
            Page {props.page} of {props.pageCount}
          </span>
          {props.page < props.pageCount ? (
            <a href={props.href(props.page + 1)} rel="next">
              Next →
            </a>
          ) : (
            <span className="dt-off">Next →</span>
          )}
        </>
      ) : null}
    </nav>
  );
}

/** A GET search form that keeps the other params as hidden fields. */
export function TableSearch(props: {
  action: string;
  name?: string;
  value: string;
  label: string;
  placeholder?: string;
  keep: Record<string, string | number | string[] | undefined>;
  children?: ReactNode;
  testId?: string;
}) {
  const name = props.name ?? "q";
  const id = `dt-search-${name}`;
  return (
    <form className="dt-toolbar" method="get" action={props.action} role="search" data-testid={props.testId}>
      {Object.entries(props.keep).flatMap(([k, v]) =>
        v === undefined || v === "" || k === name || k.endsWith("page")
          ? []
          : (Array.isArray(v) ? v : [v]).map((one, i) => (
              <input key={`${k}-${i}`} type="hidden" name={k} value={one} />
            )),
      )}
      <div className="field">
        <label htmlFor={id}>{props.label}</label>
        <input id={id} type="search" name={name} defaultValue={props.value} placeholder={props.placeholder} />
      </div>
      {props.children}
      <button type="submit" className="secondary">
        Apply
      </button>
    </form>
  );
}

/** A labelled filter select with an "any" first option (GET forms of the tables). */
export function FilterSelect(props: {
  id: string;
  name: string;
  label: string;
  value: string | undefined;
  anyLabel: string;
  options: readonly (string | { value: string; label: string })[];
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} name={props.name} defaultValue={props.value ?? ""}>
        <option value="">{props.anyLabel}</option>
        {props.options.map((o) => {
          const { value, label } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </select>
    </div>
  );
}
