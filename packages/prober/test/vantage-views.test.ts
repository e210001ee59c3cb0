import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  agentSampleCap,
  buildVantageViews,
  classifyFreshness,
  freshnessLimits,
  rankEndpoints,
  scoreEndpoint,
  type ScoreSample,
  type VantageSample,
} from "../src/index.js";
import { syntheticStream } from "./helpers/streams.js";

const NOW = Date.UTC(2026, 10, 1, 12);
const HIVE_MS = 3_000;

function from(
  endpointId: string,
  vantagePointId: string,
  kind: "server" | "agent",
  organizationId: string | null,
  samples: ScoreSample[],
  region = "eu",
): VantageSample[] {
  return samples.map((sample) => ({ endpointId, region, vantagePointId, kind, organizationId, sample }));
}

const stream = (latencyMs: number, errorRate = 0, count = 60, seed = 1) =>
  syntheticStream({ latencyMs, lagBlocks: 0, errorRate }, NOW, count, 30_000, seed);

function order(samples: Map<string, ScoreSample[]>): string[] {
  const scores = [...samples].map(([endpointId, s]) =>
    scoreEndpoint({ endpointId, samples: s, now: NOW, window: "1h", blockIntervalMs: HIVE_MS }),
  );
  return rankEndpoints([], scores).map((r) => r.endpointId);
}

describe("vantage rules", () => {
  const servers = [...from("a", "srv", "server", null, stream(20)), ...from("b", "srv", "server", null, stream(80))];

  it("agents alone never change the overall view: it is built from server probes only", () => {
    const attack = [
      // A thousand probes saying "a" is down and "b" is instant, from one organization's agents.
      ...from("a", "evil-1", "agent", "org-evil", stream(20, 1, 500, 7)),
      ...from("b", "evil-1", "agent", "org-evil", stream(1, 0, 500, 8)),
    ];
    const [without] = buildVantageViews(servers, { blockIntervalMs: HIVE_MS, claimants: new Map() });
    const [withAttack] = buildVantageViews([...servers, ...attack], { blockIntervalMs: HIVE_MS, claimants: new Map() });
    assert.deepEqual(withAttack?.samples, without?.samples);
    assert.deepEqual(order(withAttack!.samples), ["a", "b"]);
    assert.equal(withAttack?.notes.get("a")?.agentIgnored, 500);
  });

  it("a vantage point that disagrees with the quorum of the others is discounted and flagged", () => {
    const honest = [
      ...from("a", "h1", "agent", "org-1", stream(25, 0, 40, 2)),
      ...from("a", "h2", "agent", "org-2", stream(22, 0, 40, 3)),
      ...from("b", "h1", "agent", "org-1", stream(85, 0, 40, 4)),
      ...from("b", "h2", "agent", "org-2", stream(78, 0, 40, 5)),
    ];
    const evil = [
      ...from("a", "evil-1", "agent", "org-evil", stream(20, 1, 40, 6)),
      ...from("b", "evil-2", "agent", "org-evil", stream(900, 0, 40, 9)),
    ];
    const views = buildVantageViews([...servers, ...honest, ...evil], {
      blockIntervalMs: HIVE_MS,
      claimants: new Map(),
    });
    const eu = views.find((v) => v.region === "eu")!;
    assert.deepEqual(
      eu.notes.get("a")?.discounted.map((f) => [f.vantagePointIds, f.reason, f.value]),
      [[["evil-1"], "availability", 0]],
    );
    assert.deepEqual(
      eu.notes.get("b")?.discounted.map((f) => [f.vantagePointIds, f.reason]),
      [[["evil-2"], "latency"]],
    );
    assert.ok(
      eu.samples.get("a")?.every((s) => s.ok),
      "the discounted failures are left out",
    );
    assert.deepEqual(order(eu.samples), ["a", "b"]);
    assert.equal(eu.notes.get("a")?.sources, 3, "server + two honest organizations");
  });

  it("an organization's vantage points never score an endpoint it claims", () => {
    const self = [
      ...from("b", "own", "agent", "org-b", stream(1, 0, 40, 10)),
      ...from("a", "own", "agent", "org-b", stream(25, 0, 40, 11)),
    ];
    const eu = buildVantageViews([...servers, ...self], {
      blockIntervalMs: HIVE_MS,
      claimants: new Map([["b", "org-b"]]),
    }).find((v) => v.region === "eu")!;
    assert.equal(eu.notes.get("b")?.ownExcluded, 40);
    assert.equal(eu.samples.get("b")?.length, 60, "only the server's probes of b");
    assert.equal(eu.notes.get("a")?.ownExcluded, 0, "it still scores others (capped)");
  });

  it("caps each agent organization's share of a region view", () => {
    assert.equal(agentSampleCap(100, [100], 0.25), 33);
    assert.equal(agentSampleCap(100, [100, 100], 0.25), 50);
    assert.equal(agentSampleCap(100, [10], 0.25), 10);
    assert.equal(agentSampleCap(0, [10, 40], 0.25), 10, "without server probes: equal shares");
    const flood = from("a", "f", "agent", "org-f", stream(20, 0, 600, 12));
    const eu = buildVantageViews([...servers, ...flood], { blockIntervalMs: HIVE_MS, claimants: new Map() }).find(
      (v) => v.region === "eu",
    )!;
    const total = eu.samples.get("a")?.length ?? 0;
    assert.equal(total, 60 + 20);
    assert.deepEqual(eu.notes.get("a")?.capped, [{ vantagePointIds: ["f"], kept: 20, of: 600 }]);
  });

  it("is independent of input order", () => {
    const all = [...servers, ...from("a", "h1", "agent", "org-1", stream(25, 0.1, 40, 2))];
    const a = buildVantageViews(all, { blockIntervalMs: HIVE_MS, claimants: new Map() });
    const b = buildVantageViews([...all].reverse(), { blockIntervalMs: HIVE_MS, claimants: new Map() });
    assert.deepEqual(a, b);
  });
});

describe("freshness", () => {
  const limits = freshnessLimits(HIVE_MS);
  const probe = (at: number, headBlock: number, lagBlocks: number, headAgeMs: number | null = 1_000) => ({
    at,
    ok: true,
    headBlock,
    lagBlocks,
    headAgeMs,
  });

  it("uses the node limits: max(3, 30 s of blocks) and max(60 s, 10 intervals)", () => {
    assert.deepEqual(limits, { lagBlocks: 10, headAgeMs: 60_000 });
    assert.deepEqual(freshnessLimits(12_000), { lagBlocks: 3, headAgeMs: 120_000 });
  });

  it("behind but advancing is lagging; a head that stops is stale; at the head is fresh", () => {
    const behind = Array.from({ length: 10 }, (_, i) => probe(NOW + i * 1_000, 1_000 + Math.floor(i / 3), 30, 90_000));
    assert.ok(classifyFreshness(behind, limits, HIVE_MS).every((f) => f.lagging && !f.stale));
    const stuck = Array.from({ length: 10 }, (_, i) => probe(NOW + i * 1_000, 1_000, 20 + i, 300_000 + i * 1_000));
    const flags = classifyFreshness(stuck, limits, HIVE_MS);
    assert.equal(flags[0]?.stale, false, "nothing read two intervals before the first probe");
    assert.ok(flags.slice(6).every((f) => f.stale));
    const fresh = Array.from({ length: 10 }, (_, i) => probe(NOW + i * 3_000, 1_000 + i, 0));
    assert.ok(classifyFreshness(fresh, limits, HIVE_MS).every((f) => !f.lagging && !f.stale));
  });

  it("without head times, a head unchanged for the head-age limit is stale", () => {
    const stuck = Array.from({ length: 30 }, (_, i) => probe(NOW + i * 5_000, 1_000, 0, null));
    const flags = classifyFreshness(stuck, limits, HIVE_MS);
    assert.equal(flags[11]?.stale, false);
    assert.equal(flags[12]?.stale, true, "60 s after it was first read");
  });

  it("an endpoint lagging on every probe is never healthy, and its status says so", () => {
    const lagging = syntheticStream({ latencyMs: 20, lagBlocks: 30, errorRate: 0 }, NOW, 60, 30_000, 3);
    const s = scoreEndpoint({ endpointId: "x", samples: lagging, now: NOW, window: "1h", blockIntervalMs: HIVE_MS });
    assert.equal(s.status, "lagging");
    assert.equal(s.freshness.laggingShare, 1);
  });
});
