/**
 * Values of the finality_stalled and public_head_behind rules ("higher is worse"). Pure: inputs are
 * the rows @rpcpulse/db reads for an evaluation round (readNodeFinalityStates, listNodeHeads).
 */
import type { NodeFinalityState } from "@rpcpulse/db/alerting";
import type { NodePublicHeadRow } from "@rpcpulse/db/fleet";

/** Same shape as measure.ts Measurement (kept apart so the two files do not import each other). */
export interface HeadMeasurement {
  value: number | null;
  detail?: string;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/**
 * Seconds the finalized block has stood still while the head moved on: from the first sample that
 * reported the current finalized block to the newest sample. A head that stood still too gives 0
 * (the node is stuck as a whole: head_age and node_down speak for that); no finality data or a
 * sample older than `freshMs` gives no value (the state is kept).
 */
export function measureFinalityStalled(
  state: NodeFinalityState | undefined,
  now: Date,
  options: { freshMs: number },
): HeadMeasurement {
  if (!state || now.getTime() - state.sampleTime.getTime() > options.freshMs) return { value: null };
  const { finalizedBlock, finalizedSince, headBlock, headAtFinalizedSince } = state;
  if (finalizedBlock === null || finalizedSince === null || headBlock === null) return { value: null };
  const advanced = headAtFinalizedSince === null ? 0 : headBlock - headAtFinalizedSince;
  if (advanced <= 0) {
    return { value: 0, detail: `finalized #${fmt(finalizedBlock)}; the head did not move either` };
  }
  const seconds = Math.max(0, (state.sampleTime.getTime() - finalizedSince.getTime()) / 1000);
  return {
    value: seconds,
    detail: `finalized #${fmt(finalizedBlock)} while the head moved ${fmt(advanced)} blocks to #${fmt(headBlock)}, ${fmt(headBlock - finalizedBlock)} blocks not final${state.sinceLookbackStart ? "; stalled since before the lookback" : ""}`,
  };
}

/**
 * Blocks the public URL's head is behind the node's own (node head − public head, ≥ 0) at the latest
 * check. A failing URL counts from the last head it served, or, if it never served one, from the
 * blocks produced since it started failing. No check, or one older than `freshMs`, gives no value.
 */
export function measurePublicHeadBehind(
  publicHead: NodePublicHeadRow | null | undefined,
  blockIntervalMs: number,
  now: Date,
  options: { freshMs: number },
): HeadMeasurement {
  if (!publicHead || now.getTime() - publicHead.checkedAt.getTime() > options.freshMs) return { value: null };
  const p = publicHead;
  const behind = p.headBlock !== null && p.nodeHeadBlock !== null ? Math.max(0, p.nodeHeadBlock - p.headBlock) : null;
  if (p.ok) {
    return behind === null
      ? { value: null }
      : { value: behind, detail: `public #${fmt(p.headBlock ?? 0)}, node #${fmt(p.nodeHeadBlock ?? 0)}` };
  }
  const error = [p.errorClass, p.errorMessage].filter(Boolean).join(": ") || "failed";
  if (behind !== null)
    return { value: behind, detail: `public URL failing (${error}); last served #${fmt(p.headBlock ?? 0)}` };
  if (p.failingSince === null) return { value: null };
  const blocks = Math.floor((p.checkedAt.getTime() - p.failingSince.getTime()) / Math.max(1, blockIntervalMs));
  return { value: Math.max(0, blocks), detail: `public URL failing (${error}); no head served yet` };
}
