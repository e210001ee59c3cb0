import type { EndpointDetailResponse } from "@rpcpulse/services";
import { formatBlocks, formatLatency, formatScore, formatUptime, formatUtc } from "./format.js";
import { StatusMark } from "./status-mark.js";
import type { DirectoryStatus } from "./view-model.js";

const WINDOW_ORDER = ["1h", "24h", "7d"];

/** Rank, score and the measured parts per window and region (the ranking snapshots). */
export function WindowTable({ windows }: { windows: EndpointDetailResponse["windows"] }) {
  if (windows.length === 0)
    return <p className="muted">Not ranked yet: the first scores appear about a minute after the first probes.</p>;
  const sorted = [...windows].sort(
    (a, b) =>
      WINDOW_ORDER.indexOf(a.window) - WINDOW_ORDER.indexOf(b.window) ||
      (a.region === "all" ? -1 : b.region === "all" ? 1 : a.region.localeCompare(b.region)),
  );
  return (
    <div className="table-scroll">
      <table className="data compact" data-testid="window-table">
        <caption className="sr-only">Score by window and region</caption>
        <thead>
          <tr>
            <th scope="col">Window</th>
            <th scope="col">Region</th>
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col" className="num">
              Score
            </th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Availability
            </th>
            <th scope="col" className="num">
              p50
            </th>
            <th scope="col" className="num">
              p95
            </th>
            <th scope="col" className="num">
              Lag
            </th>
            <th scope="col" className="num">
              Probes
            </th>
            <th scope="col" className="num" title="Times the head went backwards between probes">
              Head regressions
            </th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((w) => (
            <tr key={`${w.window}-${w.region}`}>
              <td>{w.window}</td>
              <td>{w.region}</td>
              <td className="num">{w.rank}</td>
              <td className="num">{formatScore(w.score)}</td>
              <td>
                <StatusMark status={w.health as DirectoryStatus} />
              </td>
              <td className="num">{formatUptime(w.availability)}</td>
              <td className="num">{formatLatency(w.p50Ms)}</td>
              <td className="num">{formatLatency(w.p95Ms)}</td>
              <td className="num">{formatBlocks(w.lagBlocks)}</td>
              <td className="num">{w.samples.toLocaleString("en-US")}</td>
              <td className="num">{w.headRegressions}</td>
              <td className="small">{formatUtc(w.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
