import type { PublicHeadView } from "@rpcpulse/services/fleet";
import { formatAgo } from "@/lib/format.js";
import { formatCount, formatMs } from "./format.js";

/** "+3", "−12", "±0" blocks: public head − node head. */
export function formatBlockDiff(diff: number | null): string {
  if (diff === null) return "—";
  if (diff === 0) return "±0";
  return `${diff > 0 ? "+" : "−"}${formatCount(Math.abs(diff))}`;
}

/** Fleet table cell: the public URL's head against the node's own, flagged when behind or failing. */
export function PublicHeadCell({ view }: { view: PublicHeadView | null }) {
  if (!view) return <span className="muted">—</span>;
  const warn = view.verdict === "behind" || view.verdict === "failing";
  return (
    <span className={`public-head ${view.verdict}`} title={view.message} data-verdict={view.verdict}>
      {warn ? "⚠ " : ""}
      {view.verdict === "failing" ? "failing" : formatBlockDiff(view.diffBlocks)}
    </span>
  );
}

/**
 * Node page: the node's own head and the head its public URL serves, side by side, with the
 * difference and a warning when the public URL is behind (a balancer serving a stale backend) or fails.
 */
export function PublicHeadCard(props: {
  view: PublicHeadView | null;
  ownHead: number | null;
  finalizedBlock: number | null;
  finalityLagBlocks: number | null;
  now: Date;
}) {
  const { view, now } = props;
  const warn = view !== null && (view.verdict === "behind" || view.verdict === "failing");
  return (
    <section className="card heads-card" aria-labelledby="heads-title" data-testid="node-heads">
      <h2 id="heads-title">Heads</h2>
      <dl className="heads-grid">
        <div>
          <dt>Node&apos;s own head</dt>
          <dd className="mono">{props.ownHead === null ? "—" : `#${formatCount(props.ownHead)}`}</dd>
        </div>
        <div>
          <dt>Public URL head</dt>
          <dd className="mono" data-testid="public-head-block">
            {view?.headBlock == null ? "—" : `#${formatCount(view.headBlock)}`}
          </dd>
        </div>
        <div>
          <dt title="Public URL head − the node's own head when the URL was checked">Difference</dt>
          <dd className="mono" data-testid="public-head-diff">
            {view ? `${formatBlockDiff(view.diffBlocks)} blocks` : "—"}
          </dd>
        </div>
        <div>
          <dt title="Head − finalized block (Hive/Steem: last irreversible block)">Finality lag</dt>
          <dd className="mono">
            {props.finalityLagBlocks === null ? "—" : `${formatCount(props.finalityLagBlocks)} blocks`}
            {props.finalizedBlock === null ? "" : ` (final #${formatCount(props.finalizedBlock)})`}
          </dd>
        </div>
      </dl>
      {view ? (
        <p
          className={warn ? "notice error public-head-warning" : "muted small"}
          role={warn ? "alert" : undefined}
          data-verdict={view.verdict}
        >
          {warn ? <strong>{view.verdict === "failing" ? "Public URL failing. " : "Public URL behind. "}</strong> : null}
          {view.message} <span className="mono">{view.url}</span> · checked {formatAgo(view.checkedAt, now)}
          {view.latencyMs !== null && view.verdict !== "failing" ? ` · ${formatMs(view.latencyMs)}` : ""}
          {view.failingSince ? ` · failing since ${formatAgo(view.failingSince, now)}` : ""}
        </p>
      ) : (
        <p className="muted small">
          No public URL check yet. Set the node&apos;s public URL (Node settings) and the worker checks the head it
          serves every 30 s.
        </p>
      )}
    </section>
  );
}
