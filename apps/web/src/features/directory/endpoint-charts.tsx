import type { EndpointHistoryResponse } from "@rpcpulse/services/directory";
import { formatLatency } from "./format.js";
import { LineChart } from "./line-chart.js";

/** Latency, availability and rate limiting over the chosen range, drawn on the server. */
export function EndpointCharts({ history }: { history: EndpointHistoryResponse }) {
  const times = history.points.map((p) => Date.parse(p.time));
  const empty = "No probes in this range yet.";
  return (
    <div className="dir-charts">
      <LineChart
        id="chart-latency"
        title="Latency"
        times={times}
        series={[
          { label: "first byte, mean", tone: "a", values: history.points.map((p) => p.ttfbMsAvg) },
          { label: "total, p95", tone: "b", values: history.points.map((p) => p.totalMsP95) },
        ]}
        format={formatLatency}
        emptyText={empty}
      />
      <LineChart
        id="chart-availability"
        title="Availability"
        times={times}
        series={[
          {
            label: "successful probes",
            tone: "c",
            values: history.points.map((p) => (p.probes ? p.availability * 100 : null)),
          },
        ]}
        format={(v) => `${Math.round(v)} %`}
        yMin={0}
        yMax={100}
        emptyText={empty}
      />
      <LineChart
        id="chart-ratelimit"
        title="Rate-limited answers (HTTP 429)"
        times={times}
        series={[{ label: "per bucket", tone: "bad", values: history.points.map((p) => p.rateLimited) }]}
        format={(v) => String(Math.round(v))}
        yMin={0}
        yMax={Math.max(2, 2 * Math.ceil(Math.max(0, ...history.points.map((p) => p.rateLimited)) / 2))}
        emptyText={empty}
      />
    </div>
  );
}
