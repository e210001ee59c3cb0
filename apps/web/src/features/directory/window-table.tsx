import type { EndpointDetailResponse } from "@rpcpulse/services/directory";
import { formatBlocks, formatLatency, formatScore, formatUptime } from "./format.js";
import { StatusMark } from "./status-mark.js";
import type { DirectoryStatus } from "./view-model.js";
import { Time } from "@/components/time.js";
import { DataTable, type DataColumn } from "@/components/data-table.js";

const WINDOW_COLUMNS: DataColumn[] = [
  { key: "Window", label: "Window" },
  { key: "Region", label: "Region" },
  { key: "Rank", label: "Rank", numeric: true },
  { key: "Score", label: "Score", numeric: true },
  { key: "Status", label: "Status" },
  { key: "Availability", label: "Availability", numeric: true },
  { key: "p50", label: "p50", numeric: true },
  { key: "p95", label: "p95", numeric: true },
  { key: "Lag", label: "Lag", numeric: true },
  { key: "Probes", label: "Probes", numeric: true },
  {
    key: "Head regressions",
    label: "Head regressions",
    numeric: true,
    title: "Times the head went backwards between probes",
  },
  {
    key: "Vantage points",
    label: "Vantage points",
    title: "Vantage points used: server probes; agents (region views only, capped, outliers flagged)",
  },
  { key: "Updated", label: "Updated" },
];

const WINDOW_ORDER = ["1h", "24h", "7d"];

type Vantage = EndpointDetailResponse["windows"][number]["vantage"];

/** Sources used and the vantage rules applied (discounted outliers, capped shares, own claims). */
function VantageCell({ vantage }: { vantage: Vantage }) {
  if (!vantage) return <td className="muted">—</td>;
  const notes = [
    ...vantage.discounted.map(
      (d) => `discounted (${d.reason}: ${+d.value.toFixed(3)} vs median ${+d.median.toFixed(3)})`,
    ),
    ...(vantage.capped.length ? [`${vantage.capped.length} capped`] : []),
    ...(vantage.ownExcluded ? [`${vantage.ownExcluded} own-claim probes left out`] : []),
    ...(vantage.agentIgnored ? [`${vantage.agentIgnored} agent probes not used overall`] : []),
  ];
  return (
    <td className="small" title={notes.join("; ") || undefined}>
      {vantage.servers} server, {vantage.agents} agent
      {vantage.discounted.length ? (
        <span className="dir-status status-degraded" data-testid="vantage-flag">
          {" "}
          {vantage.discounted.length} flagged
        </span>
      ) : null}
    </td>
  );
}

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
    <DataTable className="compact" testId="window-table" caption="Score by window and region" columns={WINDOW_COLUMNS}>
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
          <VantageCell vantage={w.vantage} />
          <td className="small">
            <Time at={w.updatedAt} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
