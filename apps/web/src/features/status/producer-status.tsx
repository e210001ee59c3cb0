import type { PublicComponent } from "@rpcpulse/services/status";
import { LocalTime } from "@/components/display-prefs.js";
import { formatDuration } from "@/lib/format.js";

type PublicProducer = NonNullable<PublicComponent["producer"]>;

/** Misses listed per producer on the public page (the newest; the card's total says how many more). */
const MISSES_SHOWN = 5;

function headline(p: PublicProducer): string {
  if (p.disabled) return "Disabled: the signing key is the null key";
  if (p.producing) return "Producing";
  if (p.recentMisses.length > 0) return "Missed blocks recently";
  return "No recent reading";
}

type PublicValidator = NonNullable<PublicProducer["validator"]>;

function validatorHeadline(v: PublicValidator | null): string {
  if (!v) return "No reading yet";
  if (v.status === "waiting") return "Not in the active set (waiting, not elected)";
  if (v.status === "inactive") return "Not validating (no validator preferences on chain)";
  return "In the active set";
}

/**
 * What a status page says about a validator component: in the active set or not, era points against
 * the set's median, its offline reports of the last 7 days with their blocks, session keys not held.
 */
function ValidatorFacts({ account, validator: v }: { account: string; validator: PublicValidator | null }) {
  return (
    <div className="sp-producer small" data-testid="producer-facts">
      <p>
        <strong data-testid="validator-set">{validatorHeadline(v)}</strong>
        {v ? (
          <span className="muted">
            {" "}
            · era {v.activeEra} ({Math.round(v.eraProgress * 100)} % through)
          </span>
        ) : null}
      </p>
      {v?.inActiveSet ? (
        <p data-testid="validator-points" className={v.lowPoints ? undefined : "muted"}>
          {v.eraPoints.toLocaleString("en-US")} era points against a median of{" "}
          {Math.round(v.medianPoints).toLocaleString("en-US")}
          {v.pointsShare !== null ? ` (${Math.round(v.pointsShare * 100)} %)` : " (too early in the era to compare)"}
          {v.lowPoints ? ": low" : ""}
        </p>
      ) : null}
      {v && v.offlineReports.length > 0 ? (
        <ul className="sp-producer-misses" aria-label={`Offline reports of ${account} in the last 7 days`}>
          {v.offlineReports.map((r) => (
            <li key={r.block} data-testid="validator-offline">
              Reported offline in block #{r.block} (era {r.era}) · <LocalTime at={r.detectedAt.toISOString()} />
            </li>
          ))}
        </ul>
      ) : v ? (
        <p className="muted">No offline report in the last 7 days.</p>
      ) : null}
      {v?.keysOnNode === false ? (
        <p data-testid="validator-keys">Session keys: none of the operator&apos;s nodes holds the on-chain keys.</p>
      ) : null}
    </div>
  );
}

/**
 * What a status page says about a producer component. A witness: producing or not, its misses of
 * the last 24 h with their block numbers, a disabled key, a stale price feed. A validator: see
 * ValidatorFacts.
 */
export function ProducerFacts({ producer: p }: { producer: PublicProducer }) {
  if (p.kind === "validator") return <ValidatorFacts account={p.account} validator={p.validator} />;
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
          Price feed stale:{" "}
          {p.feedAgeHours === null ? "none published" : `${formatDuration(p.feedAgeHours * 3_600_000)} old`}
        </p>
      ) : null}
    </div>
  );
}
