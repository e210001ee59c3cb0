import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  createProbeScheduler,
  createSafeHttpClient,
  probeEndpoint,
  type ProbeResult,
  type ProbeTarget,
} from "../src/index.js";
import { startHttpServer, type TestServer } from "./helpers/servers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("probe scheduler", () => {
  it("never exceeds the concurrency bound and never probes one target twice at once", async () => {
    let active = 0;
    let peak = 0;
    const perTarget = new Map<number, number>();
    let doubled = false;
    const done: number[] = [];
    const scheduler = createProbeScheduler<number, number>({
      concurrency: 4,
      intervalMs: 30,
      jitter: 0.5,
      run: async (t) => {
        active++;
        peak = Math.max(peak, active);
        perTarget.set(t, (perTarget.get(t) ?? 0) + 1);
        if ((perTarget.get(t) ?? 0) > 1) doubled = true;
        await sleep(t === 0 ? 120 : 5); // target 0 is slower than a round
        perTarget.set(t, (perTarget.get(t) ?? 1) - 1);
        active--;
        return t;
      },
      onResult: (_t, r) => done.push(r ?? -1),
    });
    scheduler.start(Array.from({ length: 12 }, (_, i) => i));
    await sleep(400);
    await scheduler.stop();
    assert.equal(peak, 4);
    assert.equal(doubled, false);
    assert.equal(scheduler.inFlight(), 0);
    const slow = done.filter((t) => t === 0).length;
    const fast = done.filter((t) => t === 5).length;
    assert.ok(fast >= 5, `fast target probed ${fast} times`);
    assert.ok(slow < fast, "the slow target is skipped while its probe runs, not stacked");
    const after = done.length;
    await sleep(100);
    assert.equal(done.length, after, "nothing runs after stop()");
  });

  it("reports thrown errors through onResult", async () => {
    const errors: unknown[] = [];
    const s = createProbeScheduler<string, void>({
      concurrency: 2,
      intervalMs: 1000,
      jitter: 0,
      run: async (t) => {
        if (t === "bad") throw new Error("boom");
      },
      onResult: (_t, _r, e) => e && errors.push(e),
    });
    const stats = await s.runRound(["a", "bad", "b"]);
    assert.equal(stats.completed, 3);
    assert.equal(errors.length, 1);
  });

  describe("throughput", () => {
    let server: TestServer;
    before(async () => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { number: "0x10", timestamp: "0x5f5e100" } });
      server = await startHttpServer((req, res) => {
        req.resume();
        req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(body));
      });
    });
    after(() => server.close());

    it("sustains well over 100 real probes/s on fresh connections with bounded concurrency", async () => {
      const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 2000 });
      const targets: ProbeTarget[] = Array.from({ length: 50 }, (_, i) => ({
        url: `${server.url}/t${i}`,
        family: "ethereum",
        network: "ethereum-mainnet",
      }));
      let ok = 0;
      let failed = 0;
      const scheduler = createProbeScheduler<ProbeTarget, ProbeResult>({
        concurrency: 16,
        intervalMs: 100,
        jitter: 0.2,
        run: (t) => probeEndpoint(t, client, { finality: false }),
        onResult: (_t, r) => (r?.ok ? ok++ : failed++),
      });
      const t0 = performance.now();
      scheduler.start(targets);
      await sleep(1500);
      await scheduler.stop();
      const rate = ok / ((performance.now() - t0) / 1000);
      assert.equal(failed, 0);
      // 50 targets every 100 ms = 500/s offered; ask for at least 100/s delivered.
      assert.ok(rate >= 100, `${rate.toFixed(0)} probes/s`);
    });
  });
});
