import {
  listNetworkHeadHistory,
  listNetworkTimings,
  listRecentNodeHeads,
  type NetworkHeadRow,
  type SqlClient,
} from "@rpcpulse/db";
import { lagAgainst, observationAnchor, projectHead, type ConsensusAnchor } from "@rpcpulse/domain";

/**
 * What ingest measures a node's lag against, per sample (packages/domain consensus-head.ts):
 *
 *   reference(t) = max( consensus head of the network projected to t,
 *                       heads of the organization's OTHER nodes of that network read near t, projected to t )
 *   lag(t)       = max(0, reference(t) − the node's head at t), or null without any reference.
 *
 * The consensus comes from the worker's decisions (network_heads, independent sources only), so no
 * other organization's node can move this organization's lag; the organization's own nodes move its
 * own view only. A node alone on its network with no consensus gets null ("unknown"), never 0.
 * Each reference is projected to the sample's own time with the block interval, so the result does
 * not depend on the order in which the nodes' batches arrive.
 */
export interface NodeHeadBatch {
  organizationId: string;
  networkId: string;
  nodeId: string;
  /** Sample times (agent clock) and the agent's clock skew (agent − server), to put them on the server clock. */
  times: readonly number[];
  clockSkewMs: number;
  heads: readonly (number | null)[];
  headTimes: readonly (number | null)[];
}

export interface NetworkHeadTracker {
  observe(batch: NodeHeadBatch): void;
  /** Blocks behind the reference per sample (0 when level or ahead); null without a reference. */
  lagBlocks(batch: NodeHeadBatch): (number | null)[];
  /** Load new consensus decisions and the nodes' newest heads (throttled to refreshMs); errors are the caller's to log. */
  refresh(now?: number): Promise<void>;
}

interface NodeObservation {
  at: number;
  anchor: ConsensusAnchor;
}

export interface NetworkHeadTrackerOptions {
  /** How often stored decisions and node heads are reloaded. Default 5 s. */
  refreshMs?: number;
  /** Consensus decisions kept in memory (replayed spools older than this get no lag). Default 60 min. */
  horizonMs?: number;
  /** A consensus decision is used for samples at most this far from it. Default 5 min. */
  maxConsensusDistanceMs?: number;
  /** Another node's head is used for samples at most this far from when it was read. Default 30 s. */
  maxNodeDistanceMs?: number;
}

/** Per node, observations kept in time order (bounded). */
const MAX_NODE_OBSERVATIONS = 64;

function nearest<T extends { at: number }>(list: readonly T[], t: number): T | undefined {
  // Lists are short and sorted by time: binary search the insertion point, then compare neighbours.
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at < t) lo = mid + 1;
    else hi = mid;
  }
  const after = list[lo];
  const before = list[lo - 1];
  if (!after) return before;
  if (!before) return after;
  return t - before.at <= after.at - t ? before : after;
}

function insertSorted<T extends { at: number }>(list: T[], item: T, max: number): void {
  let i = list.length;
  while (i > 0 && list[i - 1]!.at > item.at) i--;
  if (list[i - 1]?.at === item.at) return;
  list.splice(i, 0, item);
  if (list.length > max) list.splice(0, list.length - max);
}

export function createNetworkHeadTracker(
  deps: { sql: SqlClient },
  options: NetworkHeadTrackerOptions = {},
): NetworkHeadTracker {
  const refreshMs = options.refreshMs ?? 5_000;
  const horizonMs = options.horizonMs ?? 60 * 60_000;
  const maxConsensusDistance = options.maxConsensusDistanceMs ?? 5 * 60_000;
  const maxNodeDistance = options.maxNodeDistanceMs ?? 30_000;

  const intervals = new Map<string, number>();
  /** networkId → decisions sorted by time, each as an anchor. */
  const consensus = new Map<string, Array<{ at: number; anchor: ConsensusAnchor }>>();
  /** `${organizationId}/${networkId}` → nodeId → observations sorted by time. */
  const nodes = new Map<string, Map<string, NodeObservation[]>>();
  let lastRefresh = -Infinity;
  let newestDecision = -Infinity;

  const intervalOf = (networkId: string) => intervals.get(networkId);

  const addDecision = (row: NetworkHeadRow) => {
    let list = consensus.get(row.networkId);
    if (!list) consensus.set(row.networkId, (list = []));
    insertSorted(
      list,
      { at: row.time.getTime(), anchor: { block: row.headBlock, anchorMs: row.anchorTime.getTime() } },
      Number.MAX_SAFE_INTEGER,
    );
    newestDecision = Math.max(newestDecision, row.time.getTime());
  };

  const addNodeObservation = (
    orgNetwork: string,
    nodeId: string,
    interval: number,
    at: number,
    head: number,
    headTime: number | null,
  ) => {
    let byNode = nodes.get(orgNetwork);
    if (!byNode) nodes.set(orgNetwork, (byNode = new Map()));
    let list = byNode.get(nodeId);
    if (!list) byNode.set(nodeId, (list = []));
    const anchor = observationAnchor(
      { source: nodeId, headBlock: head, headTimeMs: headTime, observedAtMs: at },
      interval,
    );
    insertSorted(list, { at, anchor }, MAX_NODE_OBSERVATIONS);
  };

  const serverTimes = (batch: NodeHeadBatch) => batch.times.map((t) => t - batch.clockSkewMs);

  const prune = (now: number) => {
    const cutoff = now - horizonMs;
    for (const list of consensus.values()) {
      const keep = list.findIndex((d) => d.at >= cutoff);
      list.splice(0, keep === -1 ? list.length : keep);
    }
    for (const byNode of nodes.values()) {
      for (const [nodeId, list] of byNode) if ((list.at(-1)?.at ?? 0) < cutoff) byNode.delete(nodeId);
    }
  };

  return {
    observe(batch) {
      const interval = intervalOf(batch.networkId);
      if (interval === undefined) return;
      const key = `${batch.organizationId}/${batch.networkId}`;
      serverTimes(batch).forEach((t, i) => {
        const head = batch.heads[i];
        if (head === null || head === undefined) return;
        addNodeObservation(key, batch.nodeId, interval, t, head, batch.headTimes[i] ?? null);
      });
    },
    lagBlocks(batch) {
      const interval = intervalOf(batch.networkId);
      if (interval === undefined) return batch.times.map(() => null);
      const decisions = consensus.get(batch.networkId) ?? [];
      const peers = [
        ...(nodes.get(`${batch.organizationId}/${batch.networkId}`) ?? new Map<string, NodeObservation[]>()),
      ]
        .filter(([nodeId]) => nodeId !== batch.nodeId)
        .map(([, list]) => list);
      return serverTimes(batch).map((t, i) => {
        const own = batch.heads[i] ?? null;
        if (own === null) return null;
        let reference: number | null = null;
        const decision = nearest(decisions, t);
        if (decision && Math.abs(decision.at - t) <= maxConsensusDistance)
          reference = projectHead(decision.anchor, t, interval);
        for (const list of peers) {
          const o = nearest(list, t);
          if (!o || Math.abs(o.at - t) > maxNodeDistance) continue;
          const projected = projectHead(o.anchor, t, interval);
          if (reference === null || projected > reference) reference = projected;
        }
        return reference === null ? null : lagAgainst({ block: reference, anchorMs: t }, t, own, interval);
      });
    },
    async refresh(now = Date.now()) {
      if (now - lastRefresh < refreshMs) return;
      lastRefresh = now;
      if (intervals.size === 0) {
        for (const n of await listNetworkTimings(deps.sql)) intervals.set(n.id, n.blockIntervalMs);
      }
      const since = Number.isFinite(newestDecision) ? newestDecision + 1 : now - horizonMs;
      for (const row of await listNetworkHeadHistory(deps.sql, { since: new Date(since) })) addDecision(row);
      for (const h of await listRecentNodeHeads(deps.sql, { since: new Date(now - 2 * maxNodeDistance) })) {
        const interval = intervalOf(h.networkId);
        if (interval === undefined) continue;
        addNodeObservation(
          `${h.organizationId}/${h.networkId}`,
          h.nodeId,
          interval,
          h.time.getTime(),
          h.headBlock,
          h.headTime?.getTime() ?? null,
        );
      }
      prune(now);
    },
  };
}
