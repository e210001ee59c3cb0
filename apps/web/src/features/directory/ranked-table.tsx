import { StatusMark, VerifiedMark } from "./status-mark.js";
import { formatBlocks, formatLatency, formatScore, formatUptime } from "./format.js";
import type { RankedRow, RankedSortKey } from "./view-model.js";
import { DataTable, type DataColumn } from "@/components/data-table.js";
import type { SortDir } from "@/lib/table-query.js";

/** Capability cell: a word, not only a symbol or colour; kept small because a list has 1,000 rows. */
function Cap({ value }: { value: boolean | null }) {
  return value === null ? (
    <span className="cap-unknown">?</span>
  ) : value ? (
    <span className="cap-yes">yes</span>
  ) : (
    <span className="cap-no">no</span>
  );
}

/** Uptime counts fresh answers only; answers that lagged are named apart (served, but old data). */
function UptimeCell({ value, lagging }: { value: number | null; lagging: number | null | undefined }) {
  if (!lagging) return <td className="num">{formatUptime(value)}</td>;
  return (
    <td className="num" title={`${formatUptime(lagging)} of probes answered while lagging`}>
      {formatUptime(value)}
      <div className="small dir-lagging-note">+{formatUptime(lagging)} lagging</div>
    </td>
  );
}

/**
 * The ranked list as one plain server-rendered table: no per-row client components (copy buttons
 * are handled by one delegated listener), plain anchors instead of prefetching links.
 */
const COLUMNS: (DataColumn & { key: RankedSortKey | "url" })[] = [
  { key: "rank", label: "#", numeric: true },
  { key: "name", label: "Endpoint" },
  { key: "url", label: "URL" },
  { key: "score", label: "Score", numeric: true },
  { key: "latency", label: "Latency p50 / p95", title: "Sorted by the fastest region's p50" },
  { key: "lag", label: "Lag", numeric: true, title: "Mean blocks behind the network head" },
  { key: "h24", label: "24 h", numeric: true },
  { key: "d7", label: "7 d", numeric: true },
  { key: "d30", label: "30 d", numeric: true },
  { key: "archive", label: "Archive" },
  { key: "websocket", label: "WS" },
  { key: "trace", label: "Trace" },
  { key: "batch", label: "Batch" },
];

export function RankedTable({
  rows,
  caption,
  sort,
}: {
  rows: RankedRow[];
  caption: string;
  sort: { key: string; dir: SortDir; href: (key: string, dir: SortDir) => string };
}) {
  return (
    <DataTable
      columns={COLUMNS}
      className="dir-rank"
      testId="ranked-table"
      caption={caption}
      rowCount={rows.length}
      sort={sort}
    >
      {rows.map((r) => (
        <tr
          key={r.id}
          className={r.status === "dead" ? "is-dead" : r.status === "probation" ? "is-probation" : undefined}
        >
          <td className="num dir-c-rank">{r.rank}</td>
          <td className="dir-c-name">
            <div className="dir-name">
              <a href={`/directory/endpoints/${r.id}`}>{r.name}</a>
            </div>
            {r.provider ? <div className="small muted">{r.provider}</div> : null}
            {r.claimedBy ? <div className="small muted">run by {r.claimedBy}</div> : null}
            <div className="dir-marks">
              <StatusMark status={r.status} compact />
              {r.operatorVerified ? <VerifiedMark /> : null}
            </div>
          </td>
          <td className="dir-c-url">
            <div className="dir-url">
              <code>{r.url}</code>
              <button type="button" className="copy-btn" data-copy="" aria-label="Copy URL">
                Copy
              </button>
            </div>
          </td>
          <td className="num dir-score">{formatScore(r.score)}</td>
          <td>
            {r.latency.length === 0 ? (
              <span className="muted">—</span>
            ) : (
              r.latency.map((l) => (
                <span key={l.region} className="dir-region">
                  <b>{l.region}</b>
                  {formatLatency(l.p50Ms)} / {formatLatency(l.p95Ms)}
                </span>
              ))
            )}
          </td>
          <td className="num">{formatBlocks(r.lagBlocks)}</td>
          <UptimeCell value={r.uptime.h24} lagging={r.uptimeLagging?.h24} />
          <UptimeCell value={r.uptime.d7} lagging={r.uptimeLagging?.d7} />
          <UptimeCell value={r.uptime.d30} lagging={r.uptimeLagging?.d30} />
          <td>
            <Cap value={r.capabilities.archive} />
          </td>
          <td>
            <Cap value={r.capabilities.websocket} />
          </td>
          <td>
            <Cap value={r.capabilities.trace} />
          </td>
          <td>
            <Cap value={r.capabilities.batch} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
