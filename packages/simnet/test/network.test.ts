import assert from "node:assert/strict";
import { test } from "node:test";
import { ChainNetwork, ManualClock, parseSimnetConfig } from "../src/index.js";
import { rpcResult, startTestSimnet, T0 } from "./helpers.js";

test("the network head advances one block per interval from the anchor, deterministically", () => {
  const clock = new ManualClock(T0);
  const a = new ChainNetwork({ slug: "hive", seed: "s", clock });
  const b = new ChainNetwork({ slug: "hive", seed: "s", clock });
  const h0 = a.head();
  clock.advance(2999);
  assert.equal(a.head(), h0);
  clock.advance(1);
  assert.equal(a.head(), h0 + 1);
  assert.equal(a.blockHashHex(h0), b.blockHashHex(h0));
  assert.notEqual(a.blockHashHex(h0), new ChainNetwork({ slug: "hive", seed: "other", clock }).blockHashHex(h0));
  assert.equal(a.heightOfHash(a.blockHashHex(h0 - 7)), h0 - 7);
  assert.equal(a.heightOfHash(`0x${"ab".repeat(32)}`), undefined);
  assert.equal(a.timeOfHeight(a.head()) % 3000, 0);
});

test("ethereum timestamps fall on real 12 s slots counted from the beacon genesis", () => {
  const clock = new ManualClock(T0);
  const eth = new ChainNetwork({ slug: "ethereum-mainnet", seed: "s", clock });
  const ts = eth.timeOfHeight(eth.head()) / 1000;
  assert.equal((ts - 1_606_824_023) % 12, 0);
  assert.ok(eth.timeOfHeight(eth.head()) <= T0 && T0 - eth.timeOfHeight(eth.head()) < 12_000);
});

test("nodes of one network share the head clock: lag, stall and runtime controls", async (t) => {
  const { simnet, clock } = await startTestSimnet({
    nodes: [
      { name: "fresh", family: "ethereum", network: "ethereum-mainnet" },
      { name: "behind", family: "ethereum", network: "ethereum-mainnet", lagBlocks: 4 },
      { name: "stuck", family: "ethereum", network: "ethereum-mainnet", stall: { afterBlocks: 2 } },
    ],
  });
  t.after(() => simnet.close());
  const head = async (name: string): Promise<number> =>
    Number(await rpcResult(simnet.node(name).url, "eth_blockNumber"));
  const start = await head("fresh");
  assert.equal(await head("behind"), start - 4);
  assert.equal(await head("stuck"), start);
  clock.advance(12_000 * 10);
  assert.equal(await head("fresh"), start + 10);
  assert.equal(await head("behind"), start + 6);
  assert.equal(await head("stuck"), start + 2, "stalled two blocks after start");

  simnet.node("fresh").setStalled(true);
  simnet.node("behind").setLag(0);
  clock.advance(12_000 * 3);
  assert.equal(await head("fresh"), start + 10);
  assert.equal(await head("behind"), start + 13);
  simnet.node("fresh").setStalled(false);
  assert.equal(await head("fresh"), start + 13);
});

test("headFlap makes a node's head go backwards now and then, like a load balancer mixing backends", async (t) => {
  const { simnet } = await startTestSimnet({
    nodes: [{ name: "lb", family: "hive", network: "hive", headFlap: { probability: 0.5, depthBlocks: 3 } }],
  });
  t.after(() => simnet.close());
  const seen = new Set<number>();
  for (let i = 0; i < 30; i += 1) {
    const dgp = (await rpcResult(simnet.node("lb").url, "condenser_api.get_dynamic_global_properties", [])) as {
      head_block_number: number;
    };
    seen.add(dgp.head_block_number);
  }
  const head = simnet.node("lb").head();
  assert.deepEqual([...seen].sort(), [head - 3, head].sort());
});

test("config errors name the field", () => {
  assert.throws(
    () =>
      parseSimnetConfig({
        nodes: [
          { name: "x", family: "ethereum", network: "hive", latency: { kind: "lognormal", medianMs: 50, p95Ms: 10 } },
        ],
      }),
    (error: Error) => /nodes\[0\]\.latency\.p95Ms: p95Ms must be >= medianMs/.test(error.message),
  );
  assert.throws(
    () => parseSimnetConfig({ nodes: [{ name: "x", family: "ethereum", network: "hive" }] }),
    (error: Error) => /nodes\[0\]\.family: network hive has no ethereum API/.test(error.message),
  );
  assert.throws(
    () => parseSimnetConfig({ nodes: [{ name: "x", family: "hive", network: "moon" }] }),
    (error: Error) => /nodes\[0\]\.network: unknown network/.test(error.message),
  );
  assert.throws(
    () =>
      parseSimnetConfig({
        nodes: [
          { name: "a", family: "hive", network: "hive", port: 18000 },
          { name: "a", family: "hive", network: "hive", port: 18000 },
        ],
      }),
    (error: Error) =>
      /nodes\[1\]\.name: duplicate name a/.test(error.message) &&
      /nodes\[1\]\.port: port 18000 used twice/.test(error.message),
  );
});
