import type { PublicComponent } from "@rpcpulse/services";
import { LocalTime } from "../../components/display-prefs.js";

type PublicProducer = NonNullable<PublicComponent["producer"]>;

/** Misses listed per producer on the public page (the newest; the card's total says how many more). */
const MISSES_SHOWN = 5;

function headline(p: PublicProducer): string {
  if (p.disabled) return "Disabled: the signing key is the null key";
  if (p.producing) return "Producing";
  if (p.recentMisses.length > 0) return "Missed blocks recently";
  return "No recent reading";
}

/**
 * What a status page says about a producer component (a witness): producing or not, its misses of
 * the last 24 h with their block numbers, a disabled key, a stale price feed.
 */
export function ProducerFacts({ producer: p }: { producer: PublicProducer }) {
  return (
    <div className="sp-producer small" data-testid="producer-facts">
      <p>
        <strong>{headline(p)}</strong>
        {p.totalMissed !== null ? (
          <span className="muted"> · {p.totalMissed.toLocaleString("en-US")} missed in total</span>
        ) : null}
        {p.lastConfirmedBlock !== null ? (
          <span className="muted"> · last block #{p.lastConfirmedBlock.toLocaleString("en-US")}</span>
        ) : null}
      </p>
      {p.recentMisses.length > 0 ? (
        <ul className="sp-producer-misses" aria-label={`Missed blocks of ${p.account} in the last 24 hours`}>
          {p.recentMisses.slice(0, MISSES_SHOWN).map((m) => (
            <li key={`${m.detectedAt.toISOString()}-${m.fromBlock}`} data-testid="producer-miss">
              Missed {m.text}
              {m.count > 1 && (m.blocks?.length ?? 0) < m.count ? ` (${m.count} blocks)` : ""} ·{" "}
              <LocalTime at={m.detectedAt.toISOString()} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No missed block in the last 24 hours.</p>
      )}
      {p.kind === "witness" && p.feedStale ? (
        <p data-testid="producer-feed-stale">
          Price feed stale: {p.feedAgeHours === null ? "none published" : `${p.feedAgeHours.toFixed(1)} h old`}
        </p>
      ) : null}
    </div>
  );
}
