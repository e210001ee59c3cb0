import type { ReactNode } from "react";
import { ACTIONS_COLUMN, DataTable as SharedTable, labelColumns } from "@/components/data-table.js";

/**
 * A table of the alerts page (rules, channels): the shared table with a line instead of an empty
 * table, and with `actions` a last column with a screen-reader header for the row buttons.
 */
export function DataTable(props: {
  testId: string;
  columns: string[];
  actions: boolean;
  empty: boolean;
  emptyText: string;
  children: ReactNode;
}) {
  const columns = labelColumns(props.columns);
  return (
    <SharedTable
      testId={props.testId}
      columns={props.actions ? [...columns, ACTIONS_COLUMN] : columns}
      rowCount={props.empty ? 0 : 1}
      empty={<p className="muted">{props.emptyText}</p>}
    >
      {props.children}
    </SharedTable>
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
