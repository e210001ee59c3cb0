import type { AdvisorInput, AdvisorNode, AdvisorSample } from "../src/index.js";
import { build } from "./fixtures.js";

/** Block timestamps `behindMs` in the host's future (negative head age, ±0.5 s of jitter); no ingest skew. */
export function clockBehind(node: Partial<AdvisorNode>, behindMs: number): AdvisorInput {
  return build({ node, sample: (i) => ({ headAgeMs: -behindMs + ((i % 3) - 1) * 500 }) });
}

/**
 * The ingest measured the agent clock `skewMs` off the server's (positive = ahead); a clock ahead also
 * ages every head by that much. `extra` overrides per sample.
 */
export function clockOffByIngest(
  node: Partial<AdvisorNode>,
  skewMs: number,
  extra: Partial<AdvisorSample> = {},
): AdvisorInput {
  return build({
    node,
    sample: (i, s) => ({
      clockSkewMs: skewMs + ((i % 2) * 2 - 1) * 40,
      headAgeMs: (s.headAgeMs ?? 0) + Math.max(0, skewMs),
      ...extra,
    }),
  });
}
