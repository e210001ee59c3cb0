import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { agentProbeSchema, VANTAGE_LIMITS } from "@rpcpulse/domain";
import { createLogger } from "@rpcpulse/config";
import { startSimnet } from "@rpcpulse/simnet";
import { resolveConfig, UsageError } from "../src/config/load.js";
import { parseAgentEnv } from "../src/env.js";
import { createVantageProber, MAX_BUFFERED_PROBES, toAgentProbe } from "../src/vantage/vantage-prober.js";

const silent = createLogger({ name: "test", level: "silent" });

test("vantage probing is off by default and needs region, networks and the app URL when on", () => {
  assert.equal(resolveConfig({ flags: {}, env: parseAgentEnv({}) }).vantage, null);
  assert.throws(
    () => resolveConfig({ flags: { vantage: true }, env: parseAgentEnv({}) }),
    (e: unknown) => e instanceof UsageError && /--vantage-region/.test(e.message) && /--directory-url/.test(e.message),
  );
  const env = parseAgentEnv({
    RPCPULSE_VANTAGE: "true",
    RPCPULSE_VANTAGE_REGION: "eu-west",
    RPCPULSE_VANTAGE_NETWORKS: "hive,steem",
    RPCPULSE_DIRECTORY_URL: "https://rpcpulse.example/",
  });
  const v = resolveConfig({ flags: { vantageRate: 2 }, env }).vantage;
  assert.deepEqual(
    { ...v, directoryUrl: v?.directoryUrl.href },
    {
      region: "eu-west",
      networks: ["hive", "steem"],
      directoryUrl: "https://rpcpulse.example/",
      intervalMs: 60_000,
      concurrency: 4,
      ratePerSecond: 2,
      allowPrivate: false,
    },
  );
  assert.throws(() => parseAgentEnv({ RPCPULSE_VANTAGE_REGION: "EU West" }), /RPCPULSE_VANTAGE_REGION/);
  assert.throws(() => parseAgentEnv({ RPCPULSE_VANTAGE_NETWORKS: "hive,bitcoin" }), /unknown network "bitcoin"/);
});

test("a vantage round probes the fetched list within the rate and concurrency bounds; loopback is refused unless allowed", async () => {
  const simnet = await startSimnet({
    nodes: Array.from({ length: 6 }, (_, i) => ({ name: `n${i}`, family: "hive" as const, network: "hive" })),
  });
  const ids = simnet.nodes.map((_, i) => `00000000-0000-4000-8000-00000000000${i}`);
  const api = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ endpoints: simnet.nodes.map((n, i) => ({ id: ids[i], url: n.url, family: "hive" })) }));
  });
  await new Promise<void>((r) => api.listen(0, "127.0.0.1", r));
  const directoryUrl = new URL(`http://127.0.0.1:${(api.address() as AddressInfo).port}/sub`);
  try {
    const base = { region: "eu-west", networks: ["hive"], directoryUrl, intervalMs: 60_000, concurrency: 2 };
    const prober = createVantageProber({ ...base, ratePerSecond: 10, allowPrivate: true }, silent);
    const started = performance.now();
    assert.equal(await prober.runRound(), 6);
    const took = performance.now() - started;
    assert.ok(took >= 450, `6 starts at 10/s take at least 0.5 s (took ${took.toFixed(0)} ms)`);
    const probes = prober.drain();
    assert.equal(probes.length, 6);
    assert.deepEqual(new Set(probes.map((p) => p.endpointId)), new Set(ids));
    for (const p of probes) {
      assert.ok(agentProbeSchema.safeParse(p).success, "each result matches the wire schema");
      assert.equal(p.ok, true);
      assert.ok((p.headBlock ?? 0) > 0);
    }
    assert.equal(prober.buffered, 0);

    const strict = createVantageProber({ ...base, ratePerSecond: 50, allowPrivate: false }, silent);
    await strict.runRound();
    const refused = strict.drain();
    assert.equal(refused.length, 6);
    assert.ok(
      refused.every((p) => !p.ok && p.phases === null),
      "the SSRF policy refuses loopback by default",
    );
  } finally {
    await new Promise((r) => api.close(r));
    await simnet.close();
  }
});

test("toAgentProbe maps phases and clips messages; the buffer is bounded", () => {
  const p = toAgentProbe("00000000-0000-4000-8000-000000000001", {
    url: "https://x.example",
    family: "hive",
    network: "hive",
    startedAt: Date.UTC(2026, 0, 1),
    ok: false,
    httpStatus: 503,
    rpcError: null,
    errorClass: "http",
    errorMessage: "x".repeat(2_000),
    rateLimited: false,
    responseBytes: 10,
    headBlock: null,
    headTime: null,
    finalizedBlock: null,
    phases: { dnsMs: 1, connectMs: 2, tlsMs: 3, waitMs: 4, ttfbMs: 10, totalMs: 12, redirectMs: 0 },
    remoteAddress: "192.0.2.1",
  });
  assert.equal(p.errorMessage?.length, VANTAGE_LIMITS.maxMessageLength);
  assert.deepEqual(p.phases, { dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 10, totalMs: 12 });
  assert.equal(p.startedAt, "2026-01-01T00:00:00.000Z");
  assert.ok(MAX_BUFFERED_PROBES >= VANTAGE_LIMITS.maxProbesPerBatch);
});
