import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { computeNetworkHead, detectHeadRegressions, wilsonLowerBound, type HeadObservation } from "../src/index.js";

const NOW = Date.UTC(2026, 10, 1, 12);
const HIVE_MS = 3000;
const obs = (endpointId: string, headBlock: number | null, extra: Partial<HeadObservation> = {}): HeadObservation => ({
  endpointId,
  ok: headBlock !== null,
  headBlock,
  headTime: headBlock === null ? null : NOW - 1500,
  observedAt: NOW,
  ...extra,
});

describe("network head consensus", () => {
  const honest = [obs("a", 1000), obs("b", 1000), obs("c", 999), obs("d", 1001), obs("e", 990)];

  it("takes the top of the agreeing cluster, not a median pulled down by laggards", () => {
    const r = computeNetworkHead(honest, { now: NOW, blockIntervalMs: HIVE_MS, agreeBlocks: 2 });
    assert.equal(r.head, 1001);
    assert.equal(r.considered, 5);
    const lag = Object.fromEntries(r.lags.map((l) => [l.endpointId, l.lagBlocks]));
    assert.deepEqual(lag, { a: 1, b: 1, c: 2, d: 0, e: 11 });
  });

  it("a far-future or bogus head cannot move it", () => {
    const base = computeNetworkHead(honest, { now: NOW, blockIntervalMs: HIVE_MS, agreeBlocks: 2 });
    for (const bogus of [1010, 50_000, 9_007_199_254_740_000]) {
      const r = computeNetworkHead([...honest, obs("evil", bogus)], {
        now: NOW,
        blockIntervalMs: HIVE_MS,
        agreeBlocks: 2,
      });
      assert.equal(r.head, base.head, `bogus ${bogus}`);
      const evil = r.lags.find((l) => l.endpointId === "evil");
      assert.equal(evil?.ahead, true);
      assert.equal(evil?.lagBlocks, 0);
    }
    // A head time in the future is refused outright.
    const future = computeNetworkHead([...honest, obs("evil", 1002, { headTime: NOW + 3_600_000 })], {
      now: NOW,
      blockIntervalMs: HIVE_MS,
    });
    assert.equal(future.lags.find((l) => l.endpointId === "evil")?.excluded, "future");
    // Two colluding endpoints beat k=2 but not k=3.
    const pair = [...honest, obs("evil1", 50_000), obs("evil2", 50_000)];
    assert.equal(
      computeNetworkHead(pair, { now: NOW, blockIntervalMs: HIVE_MS, agreeBlocks: 2, minAgreeing: 3 }).head,
      1001,
    );
  });

  it("needs k agreeing endpoints, ignores stale and failed ones, projects old observations", () => {
    assert.equal(computeNetworkHead([obs("a", 1000)], { now: NOW, blockIntervalMs: HIVE_MS }).head, null);
    const stalled = obs("s", 800, { headTime: NOW - 600_000 });
    const r = computeNetworkHead([...honest, stalled, obs("down", null)], {
      now: NOW,
      blockIntervalMs: HIVE_MS,
      agreeBlocks: 2,
    });
    assert.equal(r.head, 1001);
    const s = r.lags.find((l) => l.endpointId === "s");
    assert.deepEqual([s?.excluded, s?.lagBlocks, s?.headAgeMs], ["stale", 201, 600_000]);
    assert.equal(r.lags.find((l) => l.endpointId === "down")?.excluded, "failed");
    // Ethereum: an observation 24 s old counts two blocks ahead.
    const eth = computeNetworkHead(
      [
        obs("x", 500, { observedAt: NOW - 24_000, headTime: NOW - 25_000 }),
        obs("y", 502, { headTime: NOW - 1000 }),
        obs("z", 502, { headTime: NOW - 1000 }),
      ],
      { now: NOW, blockIntervalMs: 12_000, agreeBlocks: 1 },
    );
    assert.equal(eth.head, 502);
    assert.equal(eth.lags.find((l) => l.endpointId === "x")?.lagBlocks, 0);
    // Observations past the horizon are not used.
    const old = computeNetworkHead(
      [obs("a", 1000, { observedAt: NOW - 3_600_000 }), obs("b", 1000, { observedAt: NOW - 3_600_000 })],
      { now: NOW, blockIntervalMs: HIVE_MS },
    );
    assert.equal(old.head, null);
  });

  it("counts endpoints whose head goes backwards", () => {
    const history: HeadObservation[] = [];
    for (let i = 0; i < 20; i++) {
      history.push(obs("steady", 1000 + i, { observedAt: NOW + i * 3000 }));
      history.push(obs("lb", 1000 + i - (i % 4 === 3 ? 5 : 0), { observedAt: NOW + i * 3000 }));
      history.push(obs("flat", 1000, { observedAt: NOW + i * 3000 }));
    }
    const r = detectHeadRegressions(history);
    assert.equal(r.endpointsWithRegression, 1);
    assert.deepEqual(
      r.perEndpoint[0] && [r.perEndpoint[0].endpointId, r.perEndpoint[0].regressions, r.perEndpoint[0].maxDepthBlocks],
      ["lb", 5, 4],
    ); // 1002 -> 998
  });
});

describe("Wilson lower bound", () => {
  it("3 of 3 does not beat 9,990 of 10,000", () => {
    assert.ok(wilsonLowerBound(3, 3) < wilsonLowerBound(9990, 10_000));
    assert.ok(Math.abs(wilsonLowerBound(3, 3) - 0.4385) < 0.001);
    assert.ok(Math.abs(wilsonLowerBound(9990, 10_000) - 0.99816) < 0.0005);
    assert.equal(wilsonLowerBound(0, 0), 0);
    assert.equal(wilsonLowerBound(0, 50), 0);
  });
});
