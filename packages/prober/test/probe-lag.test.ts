import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { measureProbeLags, type LagProbe, type StoredDecision } from "../src/index.js";
import { prng } from "./helpers/streams.js";

/**
 * Property tests of lag projection: a synthetic chain with exact block times, endpoints of known lag
 * probed at random moments of random rounds with random answer times, stored decisions at random
 * moments (or none: the round fallback). Whatever the order probes and decisions arrive in, every
 * probe reads exactly its endpoint's configured lag.
 */
const GENESIS = Date.UTC(2026, 0, 1);
const H0 = 90_000_000;

interface Scenario {
  interval: number;
  probes: LagProbe[];
  expected: number[];
  decisions: StoredDecision[];
}

function scenario(seed: number, withDecisions: boolean): Scenario {
  const rnd = prng(seed);
  const interval = [3_000, 6_000, 12_000][Math.floor(rnd() * 3)] as number;
  const head = (t: number) => H0 + Math.floor((t - GENESIS) / interval);
  const blockTime = (h: number) => GENESIS + (h - H0) * interval;
  const lags = [0, 0, 0, 0, ...Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => Math.floor(rnd() * 40))];
  const roundMs = 30_000;
  const start = GENESIS + 86_400_000 + Math.floor(rnd() * 100_000);
  const probes: LagProbe[] = [];
  const expected: number[] = [];
  for (let r = 0; r < 12; r++) {
    lags.forEach((lag, e) => {
      const startedAt = start + r * roundMs + Math.floor(rnd() * (roundMs - 2_000));
      const ttfbMs = 1 + rnd() * 400;
      const read = startedAt + ttfbMs;
      // Some probes of lagging endpoints fail: they vote for nothing and get no lag. The four at the
      // head always answer, so they are a quorum (max(2, ⌈n/3⌉) of at most 8).
      const ok = lag === 0 || rnd() > 0.1;
      const h = head(read) - lag;
      probes.push({
        startedAt,
        ttfbMs,
        ok,
        headBlock: ok ? h : null,
        headTimeMs: ok ? blockTime(h) : null,
        source: `endpoint:${e}`,
      });
      expected.push(lag);
    });
  }
  const decisions: StoredDecision[] = [];
  if (withDecisions) {
    for (let t = start; t < start + 12 * roundMs; t += 5_000 + Math.floor(rnd() * 10_000)) {
      decisions.push({ timeMs: t, anchor: { block: head(t), anchorMs: blockTime(head(t)) } });
    }
  }
  return { interval, probes, expected, decisions };
}

function shuffled<T>(list: readonly T[], rnd: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe("probe lag against the consensus head projected to each probe's time", () => {
  for (const withDecisions of [true, false]) {
    it(`reads each endpoint's exact lag on every probe (${withDecisions ? "stored decisions" : "round fallback"})`, () => {
      for (let seed = 1; seed <= 60; seed++) {
        const s = scenario(seed, withDecisions);
        const lags = measureProbeLags(s.probes, s.decisions, { blockIntervalMs: s.interval, roundMs: 30_000 });
        lags.forEach((l, i) => {
          const p = s.probes[i] as LagProbe;
          if (!p.ok) return assert.equal(l.lagBlocks, null);
          assert.equal(l.via, withDecisions ? "stored" : "round", `seed ${seed}`);
          assert.equal(l.lagBlocks, s.expected[i], `seed ${seed} probe ${i} (interval ${s.interval})`);
        });
      }
    });

    it(`gives the same lags whatever order probes and decisions arrive in (${withDecisions ? "stored" : "fallback"})`, () => {
      for (let seed = 100; seed <= 140; seed++) {
        const s = scenario(seed, withDecisions);
        const base = measureProbeLags(s.probes, s.decisions, { blockIntervalMs: s.interval });
        const rnd = prng(seed * 7);
        for (let k = 0; k < 5; k++) {
          const order = shuffled(
            s.probes.map((_, i) => i),
            rnd,
          );
          const lags = measureProbeLags(
            order.map((i) => s.probes[i] as LagProbe),
            shuffled(s.decisions, rnd),
            { blockIntervalMs: s.interval },
          );
          order.forEach((i, j) => assert.deepEqual(lags[j], base[i], `seed ${seed} shuffle ${k}`));
        }
      }
    });
  }

  it("uses the decision nearest the probe, and none farther than the limit", () => {
    const anchor = { block: 1_000, anchorMs: 0 };
    const probe: LagProbe = {
      startedAt: 600_000,
      ttfbMs: 0,
      ok: true,
      headBlock: 1_190,
      headTimeMs: null,
      source: null,
    };
    const far = measureProbeLags([probe], [{ timeMs: 0, anchor }], { blockIntervalMs: 3_000 });
    assert.deepEqual(far[0], { referenceBlock: null, lagBlocks: null, via: null }, "10 minutes away: not used");
    const near = measureProbeLags(
      [probe],
      [
        { timeMs: 0, anchor },
        { timeMs: 590_000, anchor: { block: 1_196, anchorMs: 588_000 } },
      ],
      { blockIntervalMs: 3_000 },
    );
    // 1,196 + floor((600,000 − 588,000) / 3,000) = 1,200.
    assert.deepEqual(near[0], { referenceBlock: 1_200, lagBlocks: 10, via: "stored" });
  });
});
