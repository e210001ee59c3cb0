import { formatAgo, formatClock, formatDuration } from "@/lib/format.js";
import type { ProducerView } from "@rpcpulse/services/producers";
import { registerProducerAction, deleteProducerAction } from "./actions.js";
import { ProducerAdvice } from "./producer-advice.js";

/** The fleet page's witness cards: one per registered producer, and the register form for admins. */

const shortKey = (key: string | null): string => (key ? `${key.slice(0, 10)}…${key.slice(-4)}` : "—");

/** Misses per hour (bars) and feed age (line) over 24 h, as an inline SVG. */
function HistoryChart({ history, label, zone }: { history: ProducerView["history"]; label: string; zone: string }) {
  const width = 240;
  const height = 48;
  if (history.length === 0) return <p className="muted small">No history yet.</p>;
  const step = width / Math.max(24, history.length);
  const maxMiss = Math.max(1, ...history.map((h) => h.missed));
  const maxFeed = Math.max(1, ...history.map((h) => h.feedAgeHours ?? 0));
  const line = history
    .map((h, i) =>
      h.feedAgeHours === null
        ? null
        : `${(i * step + step / 2).toFixed(1)},${(height - (h.feedAgeHours / maxFeed) * (height - 4)).toFixed(1)}`,
    )
    .filter(Boolean)
    .join(" ");
  return (
    <svg className="producer-chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      {history.map((h, i) =>
        h.missed > 0 ? (
          <rect
            key={h.bucket}
            x={i * step + 1}
            y={height - (h.missed / maxMiss) * height}
            width={Math.max(1, step - 2)}
            height={(h.missed / maxMiss) * height}
            className="miss-bar"
          >
            <title>{`${formatClock(h.bucket, zone, { zoneName: true })}: ${h.missed} missed`}</title>
          </rect>
        ) : null,
      )}
      {line ? <polyline points={line} className="feed-line" fill="none" /> : null}
    </svg>
  );
}

function ProducerCard(props: { p: ProducerView; slug: string; canManage: boolean; now: number; zone: string }) {
  const { p, slug, canManage, now, zone } = props;
  const lastMiss = p.recentMisses[0];
  return (
    <article
      className={`card producer-card ${p.state}`}
      data-testid={`producer-${p.account}`}
      aria-label={`Witness ${p.account}`}
    >
      <header className="producer-head">
        <h3>
          @{p.account} <span className="muted small">{p.network}</span>
        </h3>
        <span className={`badge producer-state ${p.state}`}>{p.state === "ok" ? "producing" : p.state}</span>
      </header>
      {p.problems.length > 0 ? (
        <ul className="producer-problems">
          {p.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      <dl className="producer-facts">
        <dt>Total missed</dt>
        <dd>{p.totalMissed ?? "—"}</dd>
        <dt>Last miss</dt>
        <dd data-testid="last-miss">
          {lastMiss ? `${lastMiss.blocksText}, ${formatAgo(lastMiss.detectedAt, now)}` : "none in 24 h"}
        </dd>
        <dt>Last confirmed block</dt>
        <dd>{p.lastConfirmedBlock !== null ? `#${p.lastConfirmedBlock}` : "—"}</dd>
        <dt>Price feed</dt>
        <dd>
          {p.feed ? `${p.feed.base} / ${p.feed.quote}` : "none"}
          {p.feedAgeHours !== null ? `, ${formatDuration(p.feedAgeHours * 3_600_000)} old` : ""}
        </dd>
        <dt>Version</dt>
        <dd>
          {p.runningVersion ?? "—"} (hardfork vote {p.hardforkVote ?? "—"}, majority {p.majorityVersion ?? "—"})
        </dd>
        <dt>Signing key</dt>
        <dd title={p.signingKey ?? undefined}>
          {p.disabled ? "null key (disabled)" : shortKey(p.signingKey)}
          {p.keyChangedAt ? `, changed ${formatAgo(p.keyChangedAt, now)}` : ""}
        </dd>
        <dt>Rank, votes</dt>
        <dd>
          {p.rank !== null ? `#${p.rank}` : "—"}, {p.votes ?? "—"}
          {p.inSchedule ? " (in the schedule)" : ""}
        </dd>
        <dt>Read</dt>
        <dd className="muted small">
          {p.observedAt ? `${formatAgo(p.observedAt, now)} from ${p.source}` : (p.error ?? "not yet")}
        </dd>
      </dl>
      {p.missExplanation ? (
        <ProducerAdvice
          testId="miss-explanation"
          summary={p.missExplanation.summary}
          backup={p.missExplanation.backup}
        />
      ) : null}
      <HistoryChart zone={zone} history={p.history} label={`Misses per hour and feed age over 24 h for ${p.account}`} />
      {canManage ? (
        <form action={deleteProducerAction}>
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="id" value={p.id} />
          <button type="submit" className="secondary small">
            Stop watching
          </button>
        </form>
      ) : null}
    </article>
  );
}

export function ProducerCards(props: {
  slug: string;
  producers: ProducerView[];
  canManage: boolean;
  error: string | undefined;
  now: number;
  zone: string;
}) {
  const { slug, producers, canManage, error, now, zone } = props;
  return (
    <section className="producers" id="producers" aria-labelledby="producers-title">
      <h2 id="producers-title">Witnesses</h2>
      {producers.length === 0 ? (
        <p className="muted">
          No witness registered. Register a Hive or Steem witness account to watch its misses, price feed, signing key
          and version.
        </p>
      ) : (
        <div className="producer-grid">
          {producers.map((p) => (
            <ProducerCard key={p.id} p={p} slug={slug} canManage={canManage} now={now} zone={zone} />
          ))}
        </div>
      )}
      {canManage ? (
        <form className="filters producer-form" action={registerProducerAction}>
          <input type="hidden" name="slug" value={slug} />
          <div className="field">
            <label htmlFor="producer-network">Network</label>
            <select id="producer-network" name="network" defaultValue="hive">
              <option value="hive">Hive</option>
              <option value="steem">Steem</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="producer-account">Witness account</label>
            <input id="producer-account" name="account" required maxLength={16} placeholder="account name" />
          </div>
          <button type="submit">Watch witness</button>
          {error ? (
            <p role="alert" className="error small" data-testid="producer-error">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </section>
  );
}
