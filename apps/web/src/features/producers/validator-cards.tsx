import { formatAgo, formatClock } from "@/lib/format.js";
import type { ValidatorView } from "@rpcpulse/services/producers";
import { registerProducerAction, deleteProducerAction } from "./actions.js";
import { ProducerAdvice } from "./producer-advice.js";

/** The fleet page's validator cards (Polkadot/Kusama stashes) beside the witness cards, and their register form. */

const shortStash = (s: string): string => `${s.slice(0, 8)}…${s.slice(-6)}`;

/** Era points (line) against the set's median (dashed) at the end of each hour over 24 h, as an inline SVG. */
function EraPointsChart({ history, label, zone }: { history: ValidatorView["history"]; label: string; zone: string }) {
  const width = 240;
  const height = 48;
  if (history.length === 0) return <p className="muted small">No history yet.</p>;
  const step = width / Math.max(24, history.length);
  const max = Math.max(1, ...history.map((h) => Math.max(h.eraPoints, h.medianPoints)));
  const y = (v: number) => (height - (v / max) * (height - 4)).toFixed(1);
  const line = (pick: (h: ValidatorView["history"][number]) => number) =>
    history.map((h, i) => `${(i * step + step / 2).toFixed(1)},${y(pick(h))}`).join(" ");
  return (
    <svg className="producer-chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <polyline points={line((h) => h.medianPoints)} className="median-line" fill="none" />
      <polyline points={line((h) => h.eraPoints)} className="feed-line" fill="none" />
      {history.map((h, i) =>
        h.inActiveSet ? null : (
          <rect key={h.bucket} x={i * step + 1} y={0} width={Math.max(1, step - 2)} height={4} className="miss-bar">
            <title>{`${formatClock(h.bucket, zone, { zoneName: true })}: not in the active set`}</title>
          </rect>
        ),
      )}
    </svg>
  );
}

function statusText(v: ValidatorView): string {
  if (v.status === "active") return "in the active set";
  if (v.status === "waiting") return "waiting (not elected)";
  if (v.status === "inactive") return "not validating";
  return "—";
}

function ValidatorCard({
  v,
  slug,
  canManage,
  now,
  zone,
}: {
  v: ValidatorView;
  slug: string;
  canManage: boolean;
  now: number;
  zone: string;
}) {
  const lastOffline = v.recentOffline[0];
  const share = v.eraPoints !== null && v.medianPoints ? Math.round((v.eraPoints / v.medianPoints) * 100) : null;
  return (
    <article
      className={`card producer-card ${v.state}`}
      data-testid={`validator-${v.account}`}
      aria-label={`Validator ${v.account}`}
    >
      <header className="producer-head">
        <h3 title={v.account}>
          {shortStash(v.account)} <span className="muted small">{v.network}</span>
        </h3>
        <span className={`badge producer-state ${v.state}`}>{v.state === "ok" ? "validating" : v.state}</span>
      </header>
      {v.problems.length > 0 ? (
        <ul className="producer-problems">
          {v.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      <dl className="producer-facts">
        <dt>Active set</dt>
        <dd data-testid="validator-status">
          {statusText(v)}
          {v.leftSetAt ? `, left ${formatAgo(v.leftSetAt, now)}` : ""}
          {v.setSize !== null ? ` (${v.setSize} validators)` : ""}
        </dd>
        <dt>Era points</dt>
        <dd>
          {v.eraPoints ?? "—"} vs median {v.medianPoints !== null ? Math.round(v.medianPoints) : "—"}
          {share !== null ? ` (${share} %)` : ""}
          {v.activeEra !== null ? `, era ${v.activeEra}` : ""}
          {v.eraProgress !== null ? `, ${Math.round(v.eraProgress * 100)} % through` : ""}
        </dd>
        <dt>Commission</dt>
        <dd>
          {v.commissionPercent !== null ? `${v.commissionPercent} %` : "—"}
          {v.blocked ? " (blocks nominations)" : ""}
        </dd>
        <dt>Offline reports</dt>
        <dd data-testid="last-offline">
          {lastOffline ? `block #${lastOffline.block}, ${formatAgo(lastOffline.detectedAt, now)}` : "none in 24 h"}
        </dd>
        <dt>Pending payouts</dt>
        <dd>{v.pendingPayoutEras.length > 0 ? `eras ${v.pendingPayoutEras.join(", ")}` : "none"}</dd>
        <dt>Session keys</dt>
        <dd>
          {v.sessionKeys === null
            ? "none set on chain"
            : v.keysOnNode === true
              ? `held by ${v.keysNode ?? "your node"}`
              : v.keysOnNode === false
                ? "no node of yours holds them"
                : "set on chain (no node of yours answers author_hasSessionKeys)"}
        </dd>
        <dt>Read</dt>
        <dd className="muted small">
          {v.observedAt ? `${formatAgo(v.observedAt, now)} from ${v.source}` : (v.error ?? "not yet")}
        </dd>
      </dl>
      {v.explanation ? (
        <ProducerAdvice
          testId="validator-explanation"
          summary={v.explanation.summary}
          lines={v.explanation.keys.held === false ? [] : [`Session keys: ${v.explanation.keys.evidence}`]}
          backup={v.explanation.backup}
        />
      ) : null}
      <EraPointsChart
        zone={zone}
        history={v.history}
        label={`Era points against the set's median over 24 h for ${v.account}`}
      />
      {canManage ? (
        <form action={deleteProducerAction}>
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="id" value={v.id} />
          <button type="submit" className="secondary small">
            Stop watching
          </button>
        </form>
      ) : null}
    </article>
  );
}

export function ValidatorCards(props: {
  slug: string;
  validators: ValidatorView[];
  canManage: boolean;
  error: string | undefined;
  now: number;
  zone: string;
}) {
  const { slug, validators, canManage, error, now, zone } = props;
  return (
    <section className="producers" id="validators" aria-labelledby="validators-title">
      <h2 id="validators-title">Validators</h2>
      {validators.length === 0 ? (
        <p className="muted">
          No validator registered. Register a Polkadot or Kusama stash to watch its place in the active set, era points,
          offline reports, commission, payouts and session keys.
        </p>
      ) : (
        <div className="producer-grid">
          {validators.map((v) => (
            <ValidatorCard key={v.id} v={v} slug={slug} canManage={canManage} now={now} zone={zone} />
          ))}
        </div>
      )}
      {canManage ? (
        <form className="filters producer-form" action={registerProducerAction}>
          <input type="hidden" name="slug" value={slug} />
          <div className="field">
            <label htmlFor="validator-network">Network</label>
            <select id="validator-network" name="network" defaultValue="polkadot">
              <option value="polkadot">Polkadot</option>
              <option value="kusama">Kusama</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="validator-stash">Stash address</label>
            <input id="validator-stash" name="account" required maxLength={48} placeholder="SS58 address" />
          </div>
          <button type="submit">Watch validator</button>
          {error ? (
            <p role="alert" className="error small" data-testid="validator-error">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </section>
  );
}
