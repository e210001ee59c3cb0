// The lag tracker as it was before the by-time reference pass and the newest-only observe (commit
// 701a104): kept as the reference the current tracker is compared with (lag-tracker-reference.int.test.ts).
import {
  listNetworkHeadHistory,
  listNetworkTimings,
  listRecentNodeHeads,
  type NetworkHeadRow,
} from "@rpcpulse/db/ingest";
import { type SqlClient } from "@rpcpulse/db/sql";
import { lagAgainst, observationAnchor, projectHead, type ConsensusAnchor } from "@rpcpulse/domain";
import { atOrBefore, freshReach, holds, insertSorted, nearest, TimeBuckets } from "./reference-time-lists.js";

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
  /**
   * Sample times as stored (the agent's clock). They are not shifted by the batch's measured skew: the
   * stored times, the nodes' heads reloaded from the database and these must share one clock, and a
   * skew measured on a replayed batch is the age of its send stamp, not the clock's error.
   */
  times: readonly number[];
  heads: readonly (number | null)[];
  headTimes: readonly (number | null)[];
}

/** A stored sample whose lag changed because a batch it was measured without arrived later. */
export interface LagCorrection {
  nodeId: string;
  /** The sample's stored time (agent clock, as in node_samples). */
  time: number;
  lagBlocks: number;
}

export interface NetworkHeadTracker {
  observe(batch: NodeHeadBatch): void;
  /** Blocks behind the reference per sample (0 when level or ahead); null without a reference. Remembered for revise(). */
  lagBlocks(batch: NodeHeadBatch): (number | null)[];
  /**
   * lagBlocks() of each batch, in order, with one pass over each organization's nodes for all of
   * them (a flush's batches) instead of one pass per sample: the same lags and the same state.
   */
  lagBlocksOfBatches(batches: readonly NodeHeadBatch[]): (number | null)[][];
  /**
   * After `batches` were observed: the lags of the organization's other recent samples that these
   * batches change (a leader's batch arriving after its followers'), for the writer to store.
   */
  revise(batches: readonly NodeHeadBatch[]): LagCorrection[];
  /** Load new consensus decisions and the nodes' newest heads (throttled to refreshMs); errors are the caller's to log. */
  refresh(now?: number): Promise<void>;
}

interface NodeObservation {
  at: number;
  anchor: ConsensusAnchor;
}

/** A sample whose lag was computed recently, kept so a late batch can revise it. */
interface MeasuredSample {
  at: number;
  storedTime: number;
  head: number;
  lag: number | null;
  /** The reference the lag was measured against, and which peer ("" = the consensus) set it. */
  reference: number | null;
  source: string | null;
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

/** One sample's reference being computed (referencesAt). */
interface ReferenceQuery {
  networkId: string;
  key: string;
  nodeId: string;
  t: number;
  interval: number;
  reference: number | null;
  source: string | null;
}

/** Per node, observations kept in time order (bounded). */
const MAX_NODE_OBSERVATIONS = 64;
/** Per node, measured samples kept for revision (bounded; they are pruned by age too). */
const MAX_MEASURED_SAMPLES = 32;

export function createReferenceNetworkHeadTracker(
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
  /** Same key → nodeId → samples measured lately. */
  const measured = new Map<string, Map<string, MeasuredSample[]>>();
  /** Same key → those samples by time, for revise() to find the ones in reach of a batch. */
  const measuredByTime = new Map<string, TimeBuckets<{ at: number; nodeId: string; m: MeasuredSample }>>();
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

  /**
   * max(consensus projected to t, the organization's other nodes read near t projected to t); null
   * without any. `source` is the peer that set it ("" = the consensus), so revise() can tell whether
   * a peer's new observation can change it without scanning every peer again.
   */
  const referenceAt = (networkId: string, key: string, nodeId: string, t: number, interval: number) => {
    let reference: number | null = null;
    let source: string | null = null;
    const decision = nearest(consensus.get(networkId) ?? [], t);
    if (decision && Math.abs(decision.at - t) <= maxConsensusDistance) {
      reference = projectHead(decision.anchor, t, interval);
      source = "";
    }
    for (const [peer, list] of nodes.get(key) ?? []) {
      if (peer === nodeId) continue;
      const o = atOrBefore(list, t, maxNodeDistance);
      if (!o) continue;
      const projected = projectHead(o.anchor, t, interval);
      if (reference === null || projected > reference) {
        reference = projected;
        source = peer;
      }
    }
    return { reference, source };
  };

  /**
   * referenceAt() for many samples at once: the consensus for each, then every node of the
   * organization once (in the same order as referenceAt, so ties pick the same source), against all
   * the samples of that organization and network.
   */
  const referencesAt = (queries: readonly ReferenceQuery[]) => {
    const byKey = new Map<string, ReferenceQuery[]>();
    for (const q of queries) {
      const decision = nearest(consensus.get(q.networkId) ?? [], q.t);
      if (decision && Math.abs(decision.at - q.t) <= maxConsensusDistance) {
        q.reference = projectHead(decision.anchor, q.t, q.interval);
        q.source = "";
      }
      let list = byKey.get(q.key);
      if (!list) byKey.set(q.key, (list = []));
      list.push(q);
    }
    for (const [key, group] of byKey) {
      for (const [peer, list] of nodes.get(key) ?? []) {
        for (const q of group) {
          if (peer === q.nodeId) continue;
          const o = atOrBefore(list, q.t, maxNodeDistance);
          if (!o) continue;
          const projected = projectHead(o.anchor, q.t, q.interval);
          if (q.reference === null || projected > q.reference) {
            q.reference = projected;
            q.source = peer;
          }
        }
      }
    }
  };

  /** Lags of the batches' samples from their references; each measured sample remembered for revise(). */
  const measureBatches = (batches: readonly NodeHeadBatch[]): (number | null)[][] => {
    const queries: ReferenceQuery[] = [];
    const perBatch = batches.map((batch) => {
      const interval = intervalOf(batch.networkId);
      if (interval === undefined) return null;
      const key = `${batch.organizationId}/${batch.networkId}`;
      return batch.times.map((t, i) => {
        const own = batch.heads[i] ?? null;
        if (own === null) return null;
        const q: ReferenceQuery = {
          networkId: batch.networkId,
          key,
          nodeId: batch.nodeId,
          t,
          interval,
          reference: null,
          source: null,
        };
        queries.push(q);
        return q;
      });
    });
    referencesAt(queries);
    return batches.map((batch, b) => {
      const samples = perBatch[b];
      if (!samples) return batch.times.map(() => null);
      const key = `${batch.organizationId}/${batch.networkId}`;
      let byNode = measured.get(key);
      if (!byNode) measured.set(key, (byNode = new Map()));
      let list = byNode.get(batch.nodeId);
      if (!list) byNode.set(batch.nodeId, (list = []));
      let byTime = measuredByTime.get(key);
      if (!byTime) measuredByTime.set(key, (byTime = new TimeBuckets()));
      const measuredList = list;
      const index = byTime;
      return samples.map((q, i) => {
        if (q === null) return null;
        const own = batch.heads[i]!;
        const { reference, source, t, interval } = q;
        const lag = lagAgainst(reference === null ? null : { block: reference, anchorMs: t }, t, own, interval);
        const m: MeasuredSample = { at: t, storedTime: batch.times[i]!, head: own, lag, reference, source };
        if (insertSorted(measuredList, m, MAX_MEASURED_SAMPLES)) index.add({ at: t, nodeId: batch.nodeId, m });
        return lag;
      });
    });
  };

  const prune = (now: number) => {
    const cutoff = now - horizonMs;
    for (const list of consensus.values()) {
      const keep = list.findIndex((d) => d.at >= cutoff);
      list.splice(0, keep === -1 ? list.length : keep);
    }
    for (const byNode of nodes.values()) {
      for (const [nodeId, list] of byNode) if ((list.at(-1)?.at ?? 0) < cutoff) byNode.delete(nodeId);
    }
    // A late batch revises samples measured at most maxNodeDistance before it arrived.
    const revisable = now - 4 * maxNodeDistance;
    for (const byNode of measured.values()) {
      for (const [nodeId, list] of byNode) {
        const keep = list.findIndex((m) => m.at >= revisable);
        if (keep === -1) byNode.delete(nodeId);
        else list.splice(0, keep);
      }
    }
    for (const byTime of measuredByTime.values()) byTime.dropBefore(revisable);
  };

  return {
    observe(batch) {
      const interval = intervalOf(batch.networkId);
      if (interval === undefined) return;
      const key = `${batch.organizationId}/${batch.networkId}`;
      batch.times.forEach((t, i) => {
        const head = batch.heads[i];
        if (head === null || head === undefined) return;
        addNodeObservation(key, batch.nodeId, interval, t, head, batch.headTimes[i] ?? null);
      });
    },
    lagBlocks(batch) {
      return measureBatches([batch])[0]!;
    },
    lagBlocksOfBatches(batches) {
      return measureBatches(batches);
    },
    revise(batches) {
      // Only the batch's own observations are new: a sample of another node can change only where
      // one of them is now the observation of this node that its time picks. Then the new reference is
      // the larger of the old one and this node's projection, unless this node set the old one and
      // now projects lower (rare: only then are all peers scanned again). Linear in the samples a
      // batch can touch, instead of samples × peers, which made a 10,000-node organization's worker
      // spend about 40 ms of CPU per batch.
      const corrections = new Map<string, LagCorrection>();
      for (const batch of batches) {
        const interval = intervalOf(batch.networkId);
        const key = `${batch.organizationId}/${batch.networkId}`;
        const byNode = measured.get(key);
        const own = nodes.get(key)?.get(batch.nodeId);
        const times = batch.times;
        if (interval === undefined || !byNode || !own || times.length === 0) continue;
        const fresh = new Set(times);
        const { from, to } = freshReach(own, fresh, maxNodeDistance);
        if (from > to) continue;
        // The other nodes' samples in reach, found by time (most are measured before this batch's
        // samples and out of reach), each checked exactly as before.
        measuredByTime.get(key)?.forEachWithin(from, to, ({ nodeId, m }) => {
          if (nodeId === batch.nodeId || !holds(byNode.get(nodeId), m)) return;
          const o = atOrBefore(own, m.at, maxNodeDistance);
          if (!o || !fresh.has(o.at)) return;
          const projected = projectHead(o.anchor, m.at, interval);
          if (m.reference === null || projected > m.reference) {
            m.reference = projected;
            m.source = batch.nodeId;
          } else if (m.source === batch.nodeId && projected < m.reference) {
            ({ reference: m.reference, source: m.source } = referenceAt(batch.networkId, key, nodeId, m.at, interval));
          } else return;
          const lag = lagAgainst(
            m.reference === null ? null : { block: m.reference, anchorMs: m.at },
            m.at,
            m.head,
            interval,
          );
          if (lag === null || lag === m.lag) return;
          m.lag = lag;
          corrections.set(`${nodeId}/${m.at}`, { nodeId, time: m.storedTime, lagBlocks: lag });
        });
      }
      return [...corrections.values()];
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
