/**
 * Status of a node on the fleet overview, from its newest sample.
 *  - waiting: no batch has landed yet (just enrolled, agent not started);
 *  - down: the agent has been silent for 3 collection intervals;
 *  - lagging: reporting, but behind the network head or syncing;
 *  - up: reporting and at the head.
 */
export const NODE_STATUSES = ["up", "lagging", "down", "waiting"] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** The agent's default collection interval (apps/agent --interval). */
export const AGENT_INTERVAL_MS = 10_000;
export const DOWN_AFTER_MS = 3 * AGENT_INTERVAL_MS;

export interface NodeStatusInput {
  /** Newest sample time, or the server's last receipt time, whichever is later. */
  lastSeenAt: Date | null;
  lagBlocks: number | null;
  /** Head age as of now. */
  headAgeMs: number | null;
  syncing: boolean | null;
  blockIntervalMs: number;
}

/** Blocks behind the network head that count as lagging: at least 3, or 30 s worth of blocks. */
export function lagThresholdBlocks(blockIntervalMs: number): number {
  return Math.max(3, Math.ceil(30_000 / Math.max(1, blockIntervalMs)));
}

/** Head older than this counts as lagging: 10 block intervals, at least 60 s. */
export function headAgeThresholdMs(blockIntervalMs: number): number {
  return Math.max(60_000, 10 * blockIntervalMs);
}

export function computeNodeStatus(input: NodeStatusInput, now: Date): NodeStatus {
  if (!input.lastSeenAt) return "waiting";
  if (now.getTime() - input.lastSeenAt.getTime() > DOWN_AFTER_MS) return "down";
  if (input.syncing) return "lagging";
  if (input.lagBlocks !== null && input.lagBlocks >= lagThresholdBlocks(input.blockIntervalMs)) return "lagging";
  if (input.headAgeMs !== null && input.headAgeMs >= headAgeThresholdMs(input.blockIntervalMs)) return "lagging";
  return "up";
}
