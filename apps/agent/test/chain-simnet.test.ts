import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { chainGroupSchema } from "@rpcpulse/domain";
import { collectChain, createChainAdapter, measureHeadAge } from "../src/chain/index.js";

/** The adapters against simulated nodes of each family (packages/simnet), with a clock held still. */
let sim: Simnet;
const clock = new ManualClock(Date.now());

before(async () => {
  sim = await startSimnet(
    {
      nodes: [
        { name: "hive", family: "hive", network: "hive", irreversibleLagBlocks: 17, clientVersion: "1.27.11" },
        {
          name: "eth",
          family: "ethereum",
          network: "ethereum-mainnet",
          peers: 12,
          clientVersion: "Nethermind/v1.31.0+abc/linux-x64/dotnet9.0.0",
        },
        { name: "dot", family: "substrate", network: "polkadot", peers: 9, clientVersion: "1.20.2-8bbd7df9e6a" },
        { name: "sidecar", family: "sidecar", network: "polkadot", clientVersion: "1.20.2-8bbd7df9e6a" },
      ],
    },
    { clock },
  );
});

after(async () => {
  await sim.close();
});

async function read(name: string) {
  const node = sim.node(name);
  const group = await collectChain(createChainAdapter(node.family, { url: new URL(node.url), timeoutMs: 5000 }), () =>
    Date.now(),
  );
  return { node, group: chainGroupSchema.parse(group) };
}

test("hive: head, head time (UTC), last irreversible block and version", async () => {
  const { node, group } = await read("hive");
  const net = sim.networks.get("hive")!;
  assert.equal(group.ok, true, group.error ?? "");
  assert.equal(group.headBlock, node.head());
  assert.equal(group.headTime, new Date(net.timeOfHeight(node.head())).toISOString());
  assert.equal(group.headTimeSource, "block");
  assert.equal(group.finalizedBlock, node.head() - 17);
  assert.equal(group.peers, null);
  assert.match(group.clientVersion ?? "", /^1\.27\.11/);
  assert.ok(
    group.latency &&
      group.latency.totalMs >= group.latency.firstByteMs &&
      group.latency.firstByteMs >= (group.latency.connectMs ?? 0),
  );
});

test("ethereum: latest and finalized block, peers, syncing, client version", async () => {
  const { node, group } = await read("eth");
  assert.equal(group.ok, true, group.error ?? "");
  assert.equal(group.headBlock, node.head());
  assert.equal(group.headTime, new Date(sim.networks.get("ethereum-mainnet")!.timeOfHeight(node.head())).toISOString());
  assert.ok(group.finalizedBlock !== null && group.finalizedBlock < node.head());
  assert.equal(group.peers, 12);
  assert.equal(group.syncing, false);
  assert.equal(group.clientVersion, "Nethermind/v1.31.0+abc/linux-x64/dotnet9.0.0");
  node.setSyncing(true);
  node.setPeers(3);
  try {
    const again = (await read("eth")).group;
    assert.equal(again.syncing, true);
    assert.equal(again.peers, 3);
  } finally {
    node.setSyncing(false);
  }
});

test("substrate: best and finalized header, head time from Timestamp.Now storage, health, version", async () => {
  const { node, group } = await read("dot");
  assert.equal(group.ok, true, group.error ?? "");
  assert.equal(group.headBlock, node.head());
  assert.equal(group.headTimeSource, "storage");
  assert.equal(group.headTime, new Date(sim.networks.get("polkadot")!.timeOfHeight(node.head())).toISOString());
  assert.equal(group.headHash, sim.networks.get("polkadot")!.blockHashHex(node.head()));
  assert.ok(group.finalizedBlock !== null && group.finalizedBlock <= node.head());
  assert.equal(group.peers, 9);
  assert.equal(group.syncing, false);
  assert.equal(group.clientVersion, "1.20.2-8bbd7df9e6a");
});

test("sidecar: best head (finalized=false) and finalized head (finalized=true), node version", async () => {
  const { node, group } = await read("sidecar");
  assert.equal(group.ok, true, group.error ?? "");
  assert.equal(group.headBlock, node.head());
  assert.ok(group.finalizedBlock !== null && group.finalizedBlock < node.head());
  assert.match(group.clientVersion ?? "", /1\.20\.2-8bbd7df9e6a/);
  assert.ok(group.headTimeSource === "storage" || group.headTimeSource === "first-seen");
});

test("a failing node gives ok=false with the reason, and a missing auxiliary method only nulls its field", async () => {
  const node = sim.node("eth");
  node.setErrorRate(1, "http-503");
  try {
    const { group } = await read("eth");
    assert.equal(group.ok, false);
    assert.match(group.error ?? "", /503/);
    assert.equal(group.headBlock, null);
  } finally {
    node.setErrorRate(0);
  }
  node.setMissingMethods(["net_peerCount"]);
  try {
    const { group } = await read("eth");
    assert.equal(group.ok, true);
    assert.equal(group.peers, null);
    assert.match(group.error ?? "", /net_peerCount/);
    assert.equal(group.headBlock, node.head());
  } finally {
    node.setMissingMethods([]);
  }
});

test("a stalled node's head age grows with real time", async () => {
  const node = sim.node("hive");
  const first = (await read("hive")).group;
  await new Promise((r) => setTimeout(r, 60));
  const second = (await read("hive")).group;
  assert.equal(second.headBlock, first.headBlock, "the manual clock holds the head still");
  assert.ok(second.headAgeMs! >= first.headAgeMs! + 50, `${second.headAgeMs} vs ${first.headAgeMs}`);
  assert.equal(second.headBlock, node.head());
});

test("a head timestamp ahead of this host's clock is reported as negative head age, flagged, not 0", async () => {
  const node = sim.node("eth");
  const headTime = sim.networks.get("ethereum-mainnet")!.timeOfHeight(node.head());
  // The host clock 45 s behind the chain's block time.
  const adapter = createChainAdapter(node.family, { url: new URL(node.url), timeoutMs: 5000 });
  const group = chainGroupSchema.parse(await collectChain(adapter, () => headTime - 45_000));
  assert.equal(group.headAgeMs, -45_000);
  assert.equal(group.headAgeSkewed, true);
  const inSync = (await read("eth")).group;
  assert.ok(inSync.headAgeMs! >= 0);
  assert.equal(inSync.headAgeSkewed, undefined, "no flag when the head is in the past");
});

test("head age bounds: a clock days off still yields a valid sample", () => {
  assert.deepEqual(measureHeadAge(1_000, null), { headAgeMs: null });
  assert.deepEqual(measureHeadAge(10_000, 12_500), { headAgeMs: -2_500, headAgeSkewed: true });
  assert.deepEqual(measureHeadAge(0, 3 * 86_400_000), { headAgeMs: -86_400_000, headAgeSkewed: true });
  assert.deepEqual(measureHeadAge(5_000, 1_000), { headAgeMs: 4_000 });
});
