import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Simnet } from "@rpcpulse/simnet";
import {
  checkCapabilities,
  createRetrier,
  createSafeHttpClient,
  ProbeError,
  type CapabilityOptions,
  type CapabilityReport,
  type ProbeTarget,
  type SafeHttpClient,
  type SafeResponse,
} from "../src/index.js";
import { ManualClock, SIM_T0, startSim } from "./helpers/sim.js";

const targetOf = (sim: Simnet, name: string): ProbeTarget => {
  const n = sim.node(name);
  return { url: n.url, family: n.family, network: n.network, wsUrl: n.wsUrl };
};

/** The parts of a report a transient error must not change. */
const facts = (r: CapabilityReport) => ({
  archive: r.archive,
  methods: r.methods,
  coverage: r.coverage,
  batch: r.batch,
  logs: [r.logsMaxRange, r.logsRangeLimited],
  cors: r.cors.allowed,
  clientVersion: r.clientVersion,
});

describe("capability checks retry transient errors (simnet)", () => {
  const clock = new ManualClock(SIM_T0);
  const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 3000 });
  let sim: Simnet;
  // Backoff on the simulated clock: a Retry-After of 1 s refills the node's token bucket.
  const opts: CapabilityOptions = {
    websocket: false,
    now: () => clock.now(),
    logsRanges: [2000, 1000, 100],
    retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 2_000, budget: 40 },
    wait: async (ms) => clock.advance(ms),
  };

  before(async () => {
    sim = await startSim(
      [
        { name: "eth", family: "ethereum", network: "ethereum-mainnet", archive: true, getLogsMaxRange: 1000 },
        { name: "hive", family: "hive", network: "hive" },
        {
          name: "eth-limited",
          family: "ethereum",
          network: "ethereum-mainnet",
          archive: true,
          getLogsMaxRange: 1000,
          rateLimit: { requestsPerSecond: 1, burst: 2 },
        },
      ],
      clock,
    );
  });
  after(() => sim.close());

  it("a 503 on the first call (the head) is retried: the report is complete, not empty", async () => {
    const clean = await checkCapabilities(targetOf(sim, "eth"), client, opts);
    assert.equal(clean.retries, 0);
    assert.equal(clean.coverage, 4 / 6);
    sim.node("eth").failNext(1, "http-503");
    const after503 = await checkCapabilities(targetOf(sim, "eth"), client, opts);
    assert.equal(after503.retries, 1);
    assert.equal(after503.headBlock !== null, true);
    assert.deepEqual(facts(after503), facts(clean));
    assert.deepEqual(after503.errors, []);
  });

  it("connection resets, 502/504 and JSON-RPC internal errors are retried too", async () => {
    const clean = await checkCapabilities(targetOf(sim, "hive"), client, opts);
    for (const kind of ["connection-reset", "http-502", "http-504", "jsonrpc-internal"] as const) {
      sim.node("hive").failNext(2, kind);
      const r = await checkCapabilities(targetOf(sim, "hive"), client, opts);
      assert.equal(r.retries, 2, kind);
      assert.deepEqual(facts(r), facts(clean), kind);
    }
  });

  it("random 503s all through the check (20 %) still give the clean report", async () => {
    const clean = await checkCapabilities(targetOf(sim, "eth"), client, opts);
    sim.node("eth").setErrorRate(0.2, "http-503");
    try {
      const flaky = await checkCapabilities(targetOf(sim, "eth"), client, opts);
      assert.ok((flaky.retries ?? 0) > 0, "the seeded error draw hit some calls");
      assert.deepEqual(facts(flaky), facts(clean));
    } finally {
      sim.node("eth").setErrorRate(0);
    }
  });

  it("429 with Retry-After is waited out within the check", async () => {
    const clean = await checkCapabilities(targetOf(sim, "eth"), client, opts);
    const limited = await checkCapabilities(targetOf(sim, "eth-limited"), client, opts);
    assert.ok((limited.retries ?? 0) >= 5, `retries ${limited.retries}`);
    assert.deepEqual(facts(limited), facts(clean));
  });

  it("a head that fails past its retries lists every method group as unknown (coverage unknown, not 0)", async () => {
    sim.node("eth").failNext(3, "http-503");
    const r = await checkCapabilities(targetOf(sim, "eth"), client, opts);
    assert.equal(r.headBlock, null);
    assert.deepEqual(r.methods, { eth: null, net: null, web3: null, debug: null, trace: null, txpool: null });
    assert.equal(r.coverage, null);
    assert.match(r.errors[0] ?? "", /HTTP 503/);
    assert.equal(r.batch, true, "later calls went through");
  });

  it("without retries (retry: false) one 503 costs the head, as before", async () => {
    sim.node("eth").failNext(1, "http-503");
    const r = await checkCapabilities(targetOf(sim, "eth"), client, { ...opts, retry: false });
    assert.equal(r.headBlock, null);
    assert.equal(r.retries, 0);
  });
});

describe("retrier", () => {
  const response = (status: number, headers: Record<string, string> = {}): SafeResponse => ({
    url: "http://x/",
    status,
    headers,
    body: Buffer.from(""),
    wireBytes: 0,
    bodyBytes: 0,
    redirects: [],
    remoteAddress: null,
    phases: { dnsMs: 0, connectMs: 0, tlsMs: 0, waitMs: 0, ttfbMs: 0, totalMs: 0, redirectMs: 0 },
  });
  const fake = (answers: Array<SafeResponse | Error>): SafeHttpClient & { calls: number } => {
    const real = createSafeHttpClient();
    const c = {
      calls: 0,
      options: real.options,
      ca: undefined,
      checkUrl: real.checkUrl,
      createLookup: real.createLookup,
      isAddressAllowed: real.isAddressAllowed,
      async request() {
        const a = answers[Math.min(c.calls++, answers.length - 1)]!;
        if (a instanceof Error) throw a;
        return a;
      },
    };
    return c;
  };
  const policy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000, budget: 3 };

  it("retries timeouts and 5xx with a growing backoff, honours a short Retry-After, spends a shared budget", async () => {
    const waits: number[] = [];
    const r = createRetrier(policy, async (ms) => waits.push(ms));
    const c = fake([new ProbeError("timeout", "deadline"), response(503), response(200)]);
    assert.equal((await r.wrapClient(c).request("http://x/")).status, 200);
    assert.equal(c.calls, 3);
    assert.ok(waits[0]! >= 100 && waits[0]! <= 125 && waits[1]! >= 200 && waits[1]! <= 250, `${waits}`);
    const limited = fake([response(429, { "retry-after": "1" }), response(200)]);
    assert.equal((await r.wrapClient(limited).request("http://x/")).status, 200);
    assert.equal(waits[2], 1000);
    assert.equal(r.retries, 3);
    const exhausted = fake([response(503), response(200)]);
    assert.equal((await r.wrapClient(exhausted).request("http://x/")).status, 503, "budget spent: no retry");
  });

  it("does not retry what is not transient: 404, 501, a long Retry-After, TLS and policy refusals", async () => {
    const r = createRetrier(policy, async () => undefined);
    for (const status of [404, 400, 501])
      assert.equal((await r.wrapClient(fake([response(status)])).request("u")).status, status);
    const slow = fake([response(429, { "retry-after": "60" }), response(200)]);
    assert.equal((await r.wrapClient(slow).request("u")).status, 429);
    for (const err of [new ProbeError("tls", "bad cert"), new ProbeError("ssrf_blocked", "loopback")]) {
      await assert.rejects(r.wrapClient(fake([err, response(200)])).request("u"), err);
    }
    assert.equal(r.retries, 0);
  });
});
