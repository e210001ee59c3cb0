import type { AdvisorInput, AdvisorNode, AdvisorSample } from "../src/index.js";
import { build, STEP_S } from "./fixtures.js";

/**
 * The head advances with the chain's block interval (samples 10 s apart) and the finalized block
 * follows `depth` blocks behind, until it stops for the last `stalledSamples` samples.
 */
export function finalityStalled(
  node: Partial<AdvisorNode> & { blockIntervalMs: number },
  stalledSamples: number,
  extra: Partial<AdvisorSample> & { depth?: number } = {},
  n = 180,
): AdvisorInput {
  const { depth = 2, ...rest } = extra;
  const stallAt = n - stalledSamples;
  const headAt = (i: number) => 1_000_000 + Math.floor((i * STEP_S * 1000) / node.blockIntervalMs);
  return build({
    node,
    n,
    sample: (i) => ({
      headBlock: headAt(i),
      finalizedBlock: headAt(Math.min(i, stallAt)) - depth,
      lagBlocks: 0,
      ...rest,
    }),
  });
}
