import { StatusMark, VerifiedMark } from "./status-mark.js";
import { formatBlocks, formatLatency, formatScore, formatUptime } from "./format.js";
import type { RankedRow } from "./view-model.js";

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
export function RankedTable({ rows, caption }: { rows: RankedRow[]; caption: string }) {
  return (
    <div className="table-scroll">
      <table className="data dir-rank" data-testid="ranked-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">Endpoint</th>
            <th scope="col">URL</th>
            <th scope="col" className="num">
              Score
            </th>
            <th scope="col">Latency p50 / p95</th>
            <th scope="col" className="num" title="Mean blocks behind the network head">
              Lag
            </th>
            <th scope="col" className="num">
              24 h
            </th>
            <th scope="col" className="num">
              7 d
            </th>
            <th scope="col" className="num">
              30 d
            </th>
            <th scope="col">Archive</th>
            <th scope="col">WS</th>
            <th scope="col">Trace</th>
            <th scope="col">Batch</th>
          </tr>
        </thead>
        <tbody>
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
        </tbody>
      </table>
    </div>
  );
}
