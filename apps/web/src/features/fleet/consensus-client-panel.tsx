import type { ConsensusClientPage, ConsensusClientView } from "@rpcpulse/services/fleet";
import { Time } from "@/components/time.js";
import { ConsensusClientChart } from "./consensus-client-chart.js";
import { formatCount } from "./format.js";

/**
 * Node page, beside the execution node: the Ethereum consensus client the agent reads through the Beacon
 * API (--beacon-url): client and version, head slot against the wall-clock slot, sync distance,
 * optimistic, peers, and whether it drives this node's execution client, with a chart over the range.
 */

const yesNo = (v: boolean | null) => (v === null ? "—" : v ? "yes" : "no");

const HEALTH_TEXT: Record<ConsensusClientView["health"], string> = {
  healthy: "in sync",
  behind: "behind",
  failing: "failing",
};

/** Fleet table cell: slots behind, flagged when behind or failing; "—" for nodes without one. */
export function ConsensusClientCell({ view }: { view: ConsensusClientView | undefined }) {
  if (!view) return <span className="muted">—</span>;
  const behind = view.slotsBehind ?? view.syncDistance;
  const text = !view.ok ? "API failing" : view.elOffline ? "EL offline" : behind === null ? "?" : `${behind} slots`;
  return (
    <span
      className={`cl-cell ${view.health}`}
      data-health={view.health}
      title={`${view.version ?? "consensus client"}: ${HEALTH_TEXT[view.health]}. ${view.ownEl.text}`}
    >
      {view.health === "healthy" ? "" : "⚠ "}
      {text}
      {view.ownEl.state === "not-own" ? " · not this EL" : ""}
    </span>
  );
}

export function ConsensusClientPanel({ page }: { page: ConsensusClientPage }) {
  const v = page.latest;
  const [client, version] = (v.version ?? "").split("/");
  const warn = v.health !== "healthy";
  return (
    <section className="card heads-card" aria-labelledby="cl-title" data-testid="consensus-client">
      <h2 id="cl-title">Consensus client</h2>
      <dl className="heads-grid">
        <div>
          <dt>Client</dt>
          <dd className="mono" data-testid="cl-version" title={v.version ?? undefined}>
            {client || "—"}
            {version ? ` ${version}` : ""}
          </dd>
        </div>
        <div>
          <dt title="/eth/v1/beacon/headers/head slot against the slot the clock is in (genesis time, 12 s slots)">
            Head slot / wall slot
          </dt>
          <dd className="mono">
            {v.headSlot === null ? "—" : formatCount(v.headSlot)} /{" "}
            {v.wallSlot === null ? "—" : formatCount(v.wallSlot)}
          </dd>
        </div>
        <div>
          <dt title="Wall-clock slot − head slot (/eth/v1/node/syncing sync_distance in brackets)">Behind</dt>
          <dd className="mono" data-testid="cl-behind">
            {v.slotsBehind === null ? "—" : `${formatCount(v.slotsBehind)} slots`}
            {v.syncDistance === null ? "" : ` (sync distance ${formatCount(v.syncDistance)})`}
          </dd>
        </div>
        <div>
          <dt title="/eth/v1/node/peer_count connected">Peers</dt>
          <dd className="mono">{v.peers === null ? "—" : formatCount(v.peers)}</dd>
        </div>
        <div>
          <dt title="/eth/v1/node/syncing is_syncing">Syncing</dt>
          <dd>{yesNo(v.syncing)}</dd>
        </div>
        <div>
          <dt title="/eth/v1/node/syncing is_optimistic: its head is not validated by its execution client yet">
            Optimistic
          </dt>
          <dd>{yesNo(v.optimistic)}</dd>
        </div>
        <div>
          <dt title="/eth/v1/node/syncing el_offline: it cannot reach its execution client">EL offline</dt>
          <dd>{yesNo(v.elOffline)}</dd>
        </div>
        <div>
          <dt>Drives this node</dt>
          <dd data-testid="cl-own-el" data-state={v.ownEl.state}>
            {v.ownEl.state === "consistent" ? "consistent" : v.ownEl.state === "not-own" ? "⚠ no" : "not known yet"}
          </dd>
        </div>
      </dl>
      <p
        className={warn || v.ownEl.state === "not-own" ? "notice error" : "muted small"}
        role={warn ? "alert" : undefined}
        data-health={v.health}
      >
        {warn ? (
          <strong>
            {!v.ok
              ? "Beacon API failing. "
              : v.elOffline
                ? "Execution client offline. "
                : "Consensus client behind: this node follows its head and stands still with it. "}
          </strong>
        ) : null}
        {!v.ok && v.error ? `${v.error} · ` : ""}
        {!v.ok && v.lastHeadSlot !== null ? `last head slot ${formatCount(v.lastHeadSlot)} · ` : ""}
        {v.ownEl.text} · read <Time at={new Date(v.time)} />
        {v.stale ? " (stale: the agent has not reported it since)" : ""}
      </p>
      <ConsensusClientChart page={page} />
    </section>
  );
}
