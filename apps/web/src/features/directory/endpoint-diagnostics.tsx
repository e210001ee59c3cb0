import type { EndpointDiagnostics } from "@rpcpulse/services/directory";

import { LineChart } from "./line-chart.js";
import { DataTable, labelColumns } from "@/components/data-table.js";
import { Time } from "@/components/time.js";

/** Blocks behind the network head over the chosen range (bucket maxima, see the methodology). */
export function LagChart({ diagnostics }: { diagnostics: EndpointDiagnostics }) {
  const lag = diagnostics.lag;
  const peak = Math.max(0, ...lag.map((p) => p.lagBlocks));
  return (
    <LineChart
      id="chart-lag"
      title="Lag behind the network head (blocks)"
      times={lag.map((p) => Date.parse(p.time))}
      series={[{ label: "blocks behind", tone: "b", values: lag.map((p) => p.lagBlocks) }]}
      format={(v) => String(Math.round(v))}
      yMin={0}
      yMax={Math.max(4, 2 * Math.ceil(peak / 2))}
      emptyText="No successful probes with a head in this range yet."
    />
  );
}

/** The newest failed probes in the range, from every region. */
export function RecentErrors({ diagnostics }: { diagnostics: EndpointDiagnostics }) {
  if (diagnostics.errors.length === 0)
    return <p className="muted small">No failed probes in the last {diagnostics.range}.</p>;
  return (
    <DataTable
      className="dir-errors"
      testId="recent-errors"
      columns={labelColumns(["Time", "Region", "Error", "HTTP", "Message"])}
    >
      {diagnostics.errors.map((e, i) => (
        <tr key={`${e.time}-${i}`}>
          <td className="mono small">
            <Time at={e.time} />
          </td>
          <td>{e.region}</td>
          <td>
            <code>{e.errorClass ?? "error"}</code>
            {e.rateLimited ? <span className="muted small"> (rate limited)</span> : null}
          </td>
          <td>{e.httpStatus ?? "—"}</td>
          <td className="small">{e.message ?? ""}</td>
        </tr>
      ))}
    </DataTable>
  );
}
