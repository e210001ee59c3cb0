import type { CapabilityReport, ScoreSample } from "../../src/index.js";
import { seededRandom } from "@rpcpulse/config/testing";

/** Deterministic PRNG (mulberry32) so synthetic streams are reproducible. */
export const prng = seededRandom;

export interface StreamSpec {
  latencyMs: number;
  lagBlocks: number;
  errorRate: number;
  region?: string;
}

/** One probe every `everyMs` ending at `now`, with known latency (±10 % noise), lag and error rate. */
export function syntheticStream(
  spec: StreamSpec,
  now: number,
  count: number,
  everyMs: number,
  seed: number,
): ScoreSample[] {
  const rnd = prng(seed);
  const out: ScoreSample[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const fail = rnd() < spec.errorRate;
    const sample: ScoreSample = {
      at: now - i * everyMs,
      ok: !fail,
      answered: true,
      answeredError: fail,
      rateLimited: false,
      ttfbMs: fail ? null : spec.latencyMs * (0.9 + 0.2 * rnd()),
      lagBlocks: fail ? null : spec.lagBlocks,
    };
    if (spec.region) sample.region = spec.region;
    out.push(sample);
  }
  return out;
}

export function capabilities(full: boolean): CapabilityReport {
  return {
    url: "http://x",
    family: "ethereum",
    network: "ethereum-mainnet",
    checkedAt: 0,
    headBlock: 1,
    archive: full,
    archiveBlock: 1,
    archiveDetail: null,
    methods: {},
    coverage: full ? 1 : 0.5,
    batch: full,
    logsMaxRange: null,
    logsRangeLimited: null,
    websocket: {
      supported: full,
      url: null,
      openMs: null,
      callMs: null,
      subscription: null,
      firstHeadMs: null,
      headDelayMs: null,
      error: null,
    },
    cors: { allowed: full, status: 204, allowOrigin: full ? "*" : null, allowMethods: null, allowHeaders: null },
    clientVersion: null,
    errors: [],
  };
}
