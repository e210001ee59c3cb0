import type { ReactNode } from "react";

/**
 * A table of the alerts page (rules, channels, delivery log): a line instead of an empty table, and
 * with `actions` a last column with a screen-reader header for the row buttons (editors only).
 */
export function DataTable(props: {
  testId: string;
  columns: string[];
  actions: boolean;
  empty: boolean;
  emptyText: string;
  children: ReactNode;
}) {
  if (props.empty) return <p className="muted">{props.emptyText}</p>;
  return (
    <table className="data" data-testid={props.testId}>
      <thead>
        <tr>
          {props.columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
          {props.actions ? (
            <th scope="col" className="actions">
              <span className="sr-only">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}

/** The name cell of a rule or channel row, marked "off" while it is disabled. */
export function NameCell({ name, enabled }: { name: string; enabled: boolean }) {
  return (
    <td>
      {name} {enabled ? null : <span className="badge">off</span>}
    </td>
  );
}
