import type { EndpointDiagnostics } from "@rpcpulse/services";

import { LineChart } from "./line-chart.js";
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
    <table className="data dir-errors" data-testid="recent-errors">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Region</th>
          <th scope="col">Error</th>
          <th scope="col">HTTP</th>
          <th scope="col">Message</th>
        </tr>
      </thead>
      <tbody>
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
      </tbody>
    </table>
  );
}
