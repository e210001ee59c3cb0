import type { Random } from "./random.js";

export type LatencySpec =
  | { kind: "fixed"; ms: number }
  | { kind: "uniform"; minMs: number; maxMs: number }
  | { kind: "lognormal"; medianMs: number; p95Ms: number };

const Z_95 = 1.6448536269514722;

/** Draw one response delay in milliseconds from the distribution. */
export function sampleLatencyMs(spec: LatencySpec, random: Random): number {
  switch (spec.kind) {
    case "fixed":
      return spec.ms;
    case "uniform":
      return spec.minMs + random.next() * (spec.maxMs - spec.minMs);
    case "lognormal": {
      const mu = Math.log(spec.medianMs);
      const sigma = Math.max(0, (Math.log(spec.p95Ms) - mu) / Z_95);
      // Box-Muller; 1 - next() keeps the logarithm away from 0.
      const u1 = 1 - random.next();
      const u2 = random.next();
      const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      return Math.exp(mu + sigma * z);
    }
  }
}
