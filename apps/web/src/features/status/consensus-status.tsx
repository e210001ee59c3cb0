import type { PublicComponent } from "@rpcpulse/services/status";

type PublicConsensus = NonNullable<PublicComponent["consensus"]>;

function headline(c: PublicConsensus): string {
  if (!c.apiOk) return "Beacon API not answering";
  if (c.elOffline) return "Execution client offline";
  if (c.slotsBehind === null) return "Following the chain (wall-clock slot unknown)";
  if (c.slotsBehind <= 1) return "At the head";
  return `${c.slotsBehind.toLocaleString("en-US")} slots behind`;
}

/**
 * What a status page says about an Ethereum consensus client: its client and version, its head slot
 * against the wall-clock slot, syncing / optimistic / execution client offline. Never the Beacon API's
 * address or error.
 */
export function ConsensusFacts({ consensus: c }: { consensus: PublicConsensus | null }) {
  if (!c) {
    return (
      <div className="sp-producer small" data-testid="consensus-facts">
        <p className="muted">No consensus-client reading yet.</p>
      </div>
    );
  }
  const flags = [c.syncing ? "syncing" : null, c.optimistic ? "optimistic (head not yet validated)" : null].filter(
    (f): f is string => f !== null,
  );
  return (
    <div className="sp-producer small" data-testid="consensus-facts">
      <p>
        <strong data-testid="consensus-headline">{headline(c)}</strong>
        {c.client ? (
          <span className="muted">
            {" "}
            · {c.client}
            {c.version ? ` ${c.version}` : ""}
          </span>
        ) : null}
      </p>
      {c.headSlot !== null ? (
        <p className="muted" data-testid="consensus-slots">
          {c.apiOk ? "Head" : "Last head served"}: slot {c.headSlot.toLocaleString("en-US")}
          {c.wallSlot !== null ? ` of ${c.wallSlot.toLocaleString("en-US")}` : ""}
          {flags.length > 0 ? ` · ${flags.join(", ")}` : ""}
        </p>
      ) : null}
    </div>
  );
}
