import type { EndpointDetailResponse } from "@rpcpulse/services/directory";
import { formatLatency } from "./format.js";
import { CapabilityMark } from "./status-mark.js";
import { Time } from "@/components/time.js";
import { DataTable, labelColumns } from "@/components/data-table.js";

type Caps = EndpointDetailResponse["capabilities"];

/** Latest capability check: each item with yes / no / not checked, and when it was checked. */
export function CapabilityTable({ capabilities: c }: { capabilities: Caps }) {
  if (!c) return <p className="muted">Not checked yet: capability checks run on a slower cadence than probes.</p>;
  const methods = Object.entries(c.methods).sort(([a], [b]) => a.localeCompare(b));
  const rows: Array<[string, boolean | null, string]> = [
    ["Archive (state at an old block)", c.archive, ""],
    ["JSON-RPC batch", c.batch, ""],
    [
      "WebSocket",
      c.websocket,
      [c.wsUrl, c.wsNewHeadMs === null ? "" : `new head after ${formatLatency(c.wsNewHeadMs)}`]
        .filter(Boolean)
        .join(" · "),
    ],
    ["CORS (browser calls)", c.cors, ""],
  ];
  return (
    <>
      <p className="small muted" data-testid="caps-checked">
        Last checked <Time at={c.checkedAt} />
        {c.clientVersion ? ` · client ${c.clientVersion}` : ""}
        {c.coverage === null ? "" : ` · method coverage ${Math.round(c.coverage * 100)} %`}
        {c.logsMaxRange === null ? "" : ` · eth_getLogs range up to ${c.logsMaxRange.toLocaleString("en-US")} blocks`}
      </p>
      <div className="grid-2">
        <DataTable
          className="compact"
          caption="Capabilities"
          columns={labelColumns(["Capability", "Supported", "Detail"])}
        >
          {rows.map(([label, value, detail]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>
                <CapabilityMark value={value} label={label} />
              </td>
              <td className="small dir-error">{detail || "—"}</td>
            </tr>
          ))}
        </DataTable>
        <DataTable className="compact" caption="Methods" columns={labelColumns(["Method or API set", "Answers"])}>
          {methods.length === 0 ? (
            <tr>
              <td colSpan={2} className="muted">
                No method checks for this family.
              </td>
            </tr>
          ) : (
            methods.map(([m, v]) => (
              <tr key={m}>
                <th scope="row">
                  <code>{m}</code>
                </th>
                <td>
                  <CapabilityMark value={v} label={m} />
                </td>
              </tr>
            ))
          )}
        </DataTable>
      </div>
    </>
  );
}
