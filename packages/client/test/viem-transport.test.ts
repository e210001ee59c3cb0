import assert from "node:assert/strict";
import { after, before, beforeEach, test } from "node:test";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { createPublicClient, fallback, http } from "viem";
import { mainnet } from "viem/chains";
import { createEndpointPicker } from "../src/index.js";
import { classifyViemError, rpcPulse } from "../src/viem.js";
import { rankedBody, startDirectoryFixture, type DirectoryFixture } from "./directory-fixture.js";
import { startRpcProxy, type RpcProxy } from "./rpc-proxy.js";

/**
 * `rpcPulse()` (src) with real viem clients against simulated Ethereum nodes behind a recording proxy, so
 * batching is visible; the ranked list comes from the fixture directory API.
 */

const NETWORK = "ethereum-mainnet";
const NODES = ["v1", "v2", "v3"];
let simnet: Simnet;
let proxy: RpcProxy;
let api: DirectoryFixture;

before(async () => {
  simnet = await startSimnet(
    {
      seed: "client-viem-transport",
      nodes: NODES.map((name, i) => ({ name, family: "ethereum", network: NETWORK, port: 0, lagBlocks: i })),
    },
    { clock: new ManualClock(Date.UTC(2026, 10, 22, 3, 0, 0)) },
  ); // heads only move when told to
  proxy = await startRpcProxy((name) => simnet.nodes.find((n) => n.name === name)?.url);
  api = await startDirectoryFixture({
    [NETWORK]: rankedBody(
      NETWORK,
      NODES.map((n) => ({ name: n, url: proxy.urlOf(n) })),
    ),
  });
});
after(async () => {
  await api.close();
  await proxy.close();
  await simnet.close();
});
beforeEach(() => {
  proxy.posts.length = 0;
  for (const n of NODES) simnet.node(n).setErrorRate(0);
});

test("rpcPulse is a viem transport: batches calls to the best endpoint, fails over, and reports to its picker", async () => {
  const transport = rpcPulse({ network: NETWORK, apiBase: api.url, refreshMs: 0, http: { batch: true } });
  const client = createPublicClient({ chain: mainnet, transport, cacheTime: 0 });
  const picker = client.transport.picker;
  const [head, chainId, balance] = await Promise.all([
    client.getBlockNumber(),
    client.getChainId(),
    client.getBalance({ address: "0x0000000000000000000000000000000000000001" }),
  ]);
  assert.equal(head, BigInt(simnet.node("v1").head()));
  assert.equal(chainId, 1);
  assert.equal(typeof balance, "bigint");
  const batches = proxy.posts.filter((p) => p.batch);
  assert.deepEqual(
    batches.map((p) => [p.node, p.calls]),
    [["v1", 3]],
    "three calls in one batched POST to the best endpoint",
  );

  simnet.node("v1").setErrorRate(1, "http-503");
  assert.equal(await client.getBlockNumber(), BigInt(simnet.node("v2").head()), "v2 (lag 1) answered");
  assert.equal(picker.health().find((h) => h.url === proxy.urlOf("v1"))?.state, "open");
  assert.equal(picker.current()?.name, "v2");
  assert.ok(
    (picker.health().find((h) => h.url === proxy.urlOf("v2"))?.latencyMs ?? -1) >= 0,
    "latency reported for the answering endpoint",
  );
});

test("request errors go back to the caller without trying another endpoint or blaming the endpoint", async () => {
  const client = createPublicClient({
    chain: mainnet,
    transport: rpcPulse({ network: NETWORK, apiBase: api.url, refreshMs: 0 }),
    cacheTime: 0,
  });
  await assert.rejects(client.request({ method: "eth_getBalance", params: ["not-an-address", "latest"] } as never));
  assert.deepEqual(
    proxy.posts.map((p) => p.node),
    ["v1"],
    "one POST, no failover",
  );
  assert.equal(client.transport.picker.health().find((h) => h.url === proxy.urlOf("v1"))?.state, "closed");
  assert.deepEqual(classifyViemError(Object.assign(new Error("x"), { name: "TimeoutError" })), {
    retry: true,
    kind: "timeout",
  });
});

test("rpcPulse works inside viem's fallback, and with a shared picker", async () => {
  const picker = createEndpointPicker({ network: NETWORK, apiBase: api.url, refreshMs: 0 });
  await picker.ready();
  picker.reportFailure(proxy.urlOf("v1"), "error"); // e.g. seen by another part of the app
  const client = createPublicClient({
    chain: mainnet,
    transport: fallback([rpcPulse({ picker }), http(proxy.urlOf("v3"))]),
    cacheTime: 0,
  });
  assert.equal(await client.getBlockNumber(), BigInt(simnet.node("v2").head()), "the picker's order is used");
  picker.close();
});
