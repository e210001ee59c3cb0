import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rankEndpoints, SCORING, scoreEndpoint, type EndpointScore, type ScoreSample } from "../src/index.js";
import { capabilities, prng, syntheticStream } from "./helpers/streams.js";

const NOW = Date.UTC(2026, 10, 1, 12);
const HIVE_MS = 3000;
const score = (endpointId: string, samples: ScoreSample[], full = true, region?: string): EndpointScore =>
  scoreEndpoint({
    endpointId,
    samples,
    capabilities: capabilities(full),
    now: NOW,
    window: "1h",
    blockIntervalMs: HIVE_MS,
    ...(region ? { region } : {}),
  });

describe("scoring and ranking", () => {
  it("orders endpoints as their configured quality says (each one worse than the last in one respect)", () => {
    const every = 30_000;
    const streams = {
      p1: syntheticStream({ latencyMs: 40, lagBlocks: 0, errorRate: 0 }, NOW, 120, every, 1),
      p2: syntheticStream({ latencyMs: 250, lagBlocks: 0, errorRate: 0 }, NOW, 120, every, 2),
      p3: syntheticStream({ latencyMs: 250, lagBlocks: 10, errorRate: 0 }, NOW, 120, every, 3),
      p4: syntheticStream({ latencyMs: 250, lagBlocks: 10, errorRate: 0.15 }, NOW, 120, every, 4),
      newbie: syntheticStream({ latencyMs: 40, lagBlocks: 0, errorRate: 0 }, NOW, 3, every, 6),
      dead: syntheticStream({ latencyMs: 40, lagBlocks: 0, errorRate: 1 }, NOW, 120, every, 7),
    };
    const scores = [
      score("p1", streams.p1),
      score("p2", streams.p2),
      score("p3", streams.p3),
      score("p4", streams.p4),
      score("p5", streams.p4, false),
      score("newbie", streams.newbie),
      score("dead", streams.dead),
    ];
    const byId = Object.fromEntries(scores.map((s) => [s.endpointId, s]));
    // Every component moves the way its configuration says.
    assert.ok((byId.p1?.latency.p50 ?? 0) < (byId.p2?.latency.p50 ?? 0));
    assert.equal(byId.p3?.lag.meanBlocks, 10);
    assert.equal(byId.p3?.lag.meanSeconds, 30);
    assert.ok(
      (byId.p4?.errorRate ?? 0) > 0.05 && (byId.p4?.availability.lower ?? 1) < (byId.p3?.availability.lower ?? 0),
    );
    assert.ok((byId.p5?.capabilityScore ?? 1) < (byId.p4?.capabilityScore ?? 0));
    // 3 clean probes do not beat 120 clean probes on availability.
    assert.ok((byId.newbie?.components.availability ?? 1) < (byId.p1?.components.availability ?? 0));
    assert.deepEqual([byId.newbie?.status, byId.dead?.status, byId.p1?.status], ["probation", "dead", "healthy"]);
    // Shuffled previous order: ranking must still follow the score ladder (gaps exceed the hysteresis).
    const ranked = rankEndpoints(["dead", "p5", "newbie", "p3", "p1", "p4", "p2"], scores, { hysteresis: 1 });
    assert.deepEqual(
      ranked.map((r) => r.endpointId),
      ["p1", "p2", "p3", "p4", "p5", "newbie", "dead"],
    );
    const dead = ranked.at(-1);
    assert.deepEqual([dead?.dead, dead?.tier, dead?.score], [true, 2, 0]);
    assert.equal(ranked.find((r) => r.endpointId === "newbie")?.probation, true);
    // With no previous order the result is the same.
    assert.deepEqual(
      rankEndpoints([], scores).map((r) => r.endpointId),
      ["p1", "p2", "p3", "p4", "p5", "newbie", "dead"],
    );
  });

  it("scores latency per region when asked", () => {
    const eu = syntheticStream({ latencyMs: 30, lagBlocks: 0, errorRate: 0, region: "eu" }, NOW, 60, 60_000, 11);
    const us = syntheticStream(
      { latencyMs: 300, lagBlocks: 0, errorRate: 0, region: "us" },
      NOW - 30_000,
      60,
      60_000,
      12,
    );
    const s = score("x", [...eu, ...us], true, "eu");
    assert.ok((s.latency.p50 ?? 0) < 40);
    assert.ok((s.latency.byRegion.us?.p50 ?? 0) > 250);
    assert.ok((score("x", [...eu, ...us], true, "us").latency.p50 ?? 0) > 250);
    assert.ok((score("x", [...eu, ...us], true).latency.p50 ?? 0) > 30, "pooled without a region");
  });

  it("dead endpoints are demoted and marked but never dropped; recovery goes through probation", () => {
    const base = syntheticStream({ latencyMs: 50, lagBlocks: 0, errorRate: 0 }, NOW - 6 * 30_000, 100, 30_000, 21);
    const downNow = [...base, ...syntheticStream({ latencyMs: 50, lagBlocks: 0, errorRate: 1 }, NOW, 6, 30_000, 22)];
    const recovering = [
      ...downNow.map((s) => ({ ...s, at: s.at - 3 * 30_000 })),
      ...syntheticStream({ latencyMs: 50, lagBlocks: 0, errorRate: 0 }, NOW, 3, 30_000, 23),
    ];
    const healthy = syntheticStream({ latencyMs: 400, lagBlocks: 2, errorRate: 0.02 }, NOW, 120, 30_000, 24);
    const scores = [score("was-best", downNow), score("recovering", recovering), score("ok", healthy)];
    assert.equal(scores[0]?.status, "dead");
    assert.equal(scores[1]?.status, "probation");
    const ranked = rankEndpoints(["was-best", "recovering", "ok"], scores);
    assert.deepEqual(
      ranked.map((r) => [r.endpointId, r.status]),
      [
        ["ok", "healthy"],
        ["recovering", "probation"],
        ["was-best", "dead"],
      ],
    );
    assert.equal(ranked.length, 3);
  });

  it("a flapping endpoint does not flip rank every cycle", () => {
    // Three endpoints of near-equal quality; "flappy" fails every other minute for two hours.
    const cycles = 120;
    const minute = 60_000;
    const rnd = prng(99);
    const history: Record<string, ScoreSample[]> = { steady1: [], steady2: [], flappy: [] };
    const latency: Record<string, number> = { steady1: 60, steady2: 62, flappy: 45 };
    const run = (hysteresis: number, windowed: boolean): number => {
      let order: string[] = [];
      let flips = 0;
      for (const k of Object.keys(history)) history[k] = [];
      for (let c = 0; c < cycles; c++) {
        const at = NOW + c * minute;
        for (const id of Object.keys(history)) {
          const fail = id === "flappy" && c % 2 === 1;
          history[id]?.push({
            at,
            ok: !fail,
            answered: true,
            answeredError: fail,
            rateLimited: false,
            ttfbMs: fail ? null : (latency[id] ?? 50) * (0.9 + 0.2 * rnd()),
            lagBlocks: fail ? null : 0,
          });
        }
        const scores = Object.entries(history).map(([id, samples]) =>
          scoreEndpoint({
            endpointId: id,
            samples: windowed ? samples : samples.slice(-1),
            now: at,
            window: "1h",
            blockIntervalMs: HIVE_MS,
            capabilities: capabilities(true),
          }),
        );
        // Only judge order among established endpoints; probation is its own tier.
        const next = rankEndpoints(order, scores, { hysteresis }).map((r) => r.endpointId);
        if (order.length && next.indexOf("flappy") !== order.indexOf("flappy")) flips++;
        order = next;
      }
      return flips;
    };
    const stable = run(SCORING.ranking.hysteresis, true);
    const naive = run(0, false);
    assert.ok(naive >= cycles / 2 - 5, `naive ranking flipped ${naive} times (the test can fail)`);
    assert.ok(stable <= 3, `ranking flipped ${stable} times in ${cycles} cycles`);
  });

  it("near-equal scores keep their previous order within the margin, and a clear lead passes", () => {
    const mk = (id: string, s: number): EndpointScore => ({
      ...score(id, syntheticStream({ latencyMs: 50, lagBlocks: 0, errorRate: 0 }, NOW, 60, 60_000, 5)),
      score: s,
    });
    const kept = rankEndpoints(["a", "b", "c"], [mk("a", 80), mk("b", 82.5), mk("c", 81)], { hysteresis: 3 });
    assert.deepEqual(
      kept.map((r) => r.endpointId),
      ["a", "b", "c"],
    );
    const passed = rankEndpoints(["a", "b", "c"], [mk("a", 80), mk("b", 79), mk("c", 90)], { hysteresis: 3 });
    assert.deepEqual(
      passed.map((r) => [r.endpointId, r.moved]),
      [
        ["c", 2],
        ["a", -1],
        ["b", -1],
      ],
    );
    const added = rankEndpoints(["a"], [mk("a", 80), mk("z", 95)], { hysteresis: 3 });
    assert.deepEqual(
      added.map((r) => [r.endpointId, r.moved]),
      [
        ["z", null],
        ["a", -1],
      ],
    );
  });
});
