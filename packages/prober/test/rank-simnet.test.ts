import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Simnet } from "@rpcpulse/simnet";
import {
  checkCapabilities,
  computeNetworkHead,
  createProbeScheduler,
  createSafeHttpClient,
  probeEndpoint,
  rankEndpoints,
  sampleFromProbe,
  scoreEndpoint,
  type CapabilityReport,
  type ProbeResult,
  type ProbeTarget,
  type ScoreSample,
} from "../src/index.js";
import { startSim } from "./helpers/sim.js";

/**
 * End to end on simulated Hive nodes with known latency, lag, error rate and capabilities:
 * probe rounds through the scheduler, consensus head per round, lag, scores, ranking. The expected
 * order follows from the configuration and the published weights (SCORING): e.g. losing archive +
 * half the method coverage costs ~4 points, 150 ms of latency ~6.
 */
describe("ranking against simnet ground truth", () => {
  let sim: Simnet;
  const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 2000 });
  const fixed = (ms: number) => ({ kind: "fixed" as const, ms });

  before(async () => {
    sim = await startSim([
      { name: "fast", family: "hive", network: "hive", latency: fixed(5) },
      { name: "medium", family: "hive", network: "hive", latency: fixed(150) },
      { name: "slow", family: "hive", network: "hive", latency: fixed(300) },
      { name: "lagging", family: "hive", network: "hive", latency: fixed(5), lagBlocks: 12 },
      { name: "flaky", family: "hive", network: "hive", latency: fixed(5), errorRate: 0.35, errorKind: "http-502" },
      { name: "down", family: "hive", network: "hive", latency: fixed(5), errorRate: 1, errorKind: "connection-reset" },
      {
        name: "fast-no-history",
        family: "hive",
        network: "hive",
        latency: fixed(5),
        missingMethods: [
          "account_history_api.get_account_history",
          "bridge.get_ranked_posts",
          "condenser_api.get_block",
        ],
      },
    ]);
  });
  after(() => sim.close());

  it("ranks as configured: fast > fast-no-history > medium > slow; lagging and flaky below; down last", async () => {
    const targets: Array<ProbeTarget & { id: string }> = sim.nodes.map((n) => ({
      id: n.name,
      url: n.url,
      family: n.family,
      network: n.network,
    }));
    const caps = new Map<string, CapabilityReport>();
    await Promise.all(
      targets.map(async (t) => caps.set(t.id, await checkCapabilities(t, client, { websocket: false }))),
    );

    const samples = new Map<string, ScoreSample[]>(targets.map((t) => [t.id, []]));
    let round: Array<{ id: string; r: ProbeResult }> = [];
    const scheduler = createProbeScheduler<(typeof targets)[number], ProbeResult>({
      concurrency: 7,
      intervalMs: 1000,
      jitter: 0,
      run: (t) => probeEndpoint(t, client),
      onResult: (t, r) => r && round.push({ id: t.id, r }),
    });
    const rounds = 22;
    for (let i = 0; i < rounds; i++) {
      round = [];
      await scheduler.runRound(targets);
      const now = Date.now();
      const head = computeNetworkHead(
        round.map(({ id, r }) => ({
          endpointId: id,
          ok: r.ok,
          headBlock: r.headBlock,
          headTime: r.headTime,
          observedAt: r.startedAt,
        })),
        { now, blockIntervalMs: 3000, agreeBlocks: 2 },
      );
      assert.ok(head.head !== null, "consensus exists");
      assert.ok(
        head.head === sim.networks.get("hive")?.head() || head.head === (sim.networks.get("hive")?.head() ?? 0) - 1,
      );
      for (const { id, r } of round) {
        const lag = head.lags.find((l) => l.endpointId === id)?.lagBlocks ?? null;
        samples.get(id)?.push(sampleFromProbe(r, lag));
      }
    }
    const now = Date.now() + 1;
    const scores = targets.map((t) =>
      scoreEndpoint({
        endpointId: t.id,
        samples: samples.get(t.id) ?? [],
        capabilities: caps.get(t.id) ?? null,
        now,
        window: "1h",
        blockIntervalMs: 3000,
      }),
    );
    const by = Object.fromEntries(scores.map((s) => [s.endpointId, s]));
    assert.ok(Math.abs((by.lagging?.lag.meanBlocks ?? 0) - 12) <= 1, `lagging mean lag ${by.lagging?.lag.meanBlocks}`);
    assert.ok((by.fast?.lag.meanBlocks ?? 9) <= 1);
    assert.ok((by.slow?.latency.p50 ?? 0) >= 300 && (by.fast?.latency.p50 ?? 99) < 60);
    assert.ok((by.flaky?.errorRate ?? 0) > 0.1);
    assert.equal(by.down?.status, "dead");
    assert.ok((by["fast-no-history"]?.capabilityScore ?? 1) < (by.fast?.capabilityScore ?? 0));

    const order = rankEndpoints([], scores).map((r) => r.endpointId);
    const pos = (id: string) => order.indexOf(id);
    assert.equal(order[0], "fast", order.join(" > "));
    assert.ok(pos("fast-no-history") < pos("medium"), order.join(" > "));
    assert.ok(pos("medium") < pos("slow"), order.join(" > "));
    assert.ok(pos("lagging") > pos("medium") && pos("flaky") > pos("medium"), order.join(" > "));
    assert.equal(order.at(-1), "down");
  });
});
