// The Beacon API adapter against simnet's consensus client (real HTTP on loopback): head slot against
// the wall-clock slot from genesis time, sync distance, optimistic, el_offline, peers, version; a beacon
// node that falls behind; a dead one; the --beacon-url flag; the wire schema accepting the group.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { agentSampleSchema } from "@rpcpulse/domain";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { BeaconAdapter, executionHeadOf, wallClockSlot } from "../src/chain/beacon.js";
import { Sampler } from "../src/collect/sampler.js";
import { resolveConfigFromFlags } from "../src/commands/options.js";

const MAINNET_GENESIS = 1_606_824_023;
let sim: Simnet;
let clock: ManualClock;

before(async () => {
  clock = new ManualClock(Date.UTC(2026, 10, 25, 1, 0, 0));
  sim = await startSimnet(
    {
      seed: "agent-beacon",
      nodes: [
        { name: "geth", family: "ethereum", network: "ethereum-mainnet", port: 0, beacon: { version: "Teku/v25.6.0" } },
      ],
    },
    { clock },
  );
});
after(() => sim.close());

async function rpc(url: string, method: string, params: unknown[]): Promise<{ number: string; hash: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await res.json()) as { result: { number: string; hash: string } }).result;
}

test("execution head of a blinded block: number and hash, null without a payload header", () => {
  const hash = `0x${"Ab".repeat(32)}`;
  const block = { message: { body: { execution_payload_header: { block_number: "22000000", block_hash: hash } } } };
  assert.deepEqual(executionHeadOf(block), { block: 22_000_000, hash: hash.toLowerCase() });
  assert.equal(executionHeadOf({ message: { body: {} } }), null);
  assert.equal(
    executionHeadOf({ message: { body: { execution_payload_header: { block_number: "1", block_hash: "0x12" } } } }),
    null,
  );
});

test("wall-clock slot: 12 s slots from genesis", () => {
  assert.equal(wallClockSlot(MAINNET_GENESIS * 1000, MAINNET_GENESIS), 0);
  assert.equal(wallClockSlot((MAINNET_GENESIS + 25) * 1000, MAINNET_GENESIS), 2);
  assert.equal(wallClockSlot((MAINNET_GENESIS - 1) * 1000, MAINNET_GENESIS), null);
});

test("a beacon node in sync, then one that falls behind with its execution client offline", async () => {
  const beacon = sim.node("geth").beacon!;
  const adapter = new BeaconAdapter({ url: new URL(beacon.url), timeoutMs: 2_000 });
  const now = () => clock.now();
  const inSync = await adapter.collect(now);
  assert.equal(inSync.ok, true);
  assert.equal(inSync.error, null);
  assert.equal(inSync.wallSlot, wallClockSlot(clock.now(), MAINNET_GENESIS));
  assert.ok(inSync.slotsBehind !== null && inSync.slotsBehind <= 1, `behind ${inSync.slotsBehind}`);
  assert.deepEqual([inSync.syncing, inSync.optimistic, inSync.elOffline, inSync.peers], [false, false, false, 80]);
  assert.equal(inSync.version, "Teku/v25.6.0");
  // The beacon head's execution block is the execution node's own head (it drives it): same hash.
  const elHead = await rpc(sim.node("geth").url, "eth_getBlockByNumber", ["latest", false]);
  assert.equal(inSync.execBlock, Number(elHead.number));
  assert.equal(inSync.execHash, elHead.hash);

  beacon.state.lagSlots = 40;
  beacon.state.elOffline = true;
  beacon.state.optimistic = true;
  const behind = await adapter.collect(now);
  assert.ok((behind.slotsBehind ?? 0) >= 40, `behind ${behind.slotsBehind}`);
  assert.ok((behind.syncDistance ?? 0) >= 40);
  assert.deepEqual([behind.syncing, behind.optimistic, behind.elOffline], [true, true, true]);
  // The execution client it drives stalls with it: its head is the beacon head's execution block.
  const stalled = await rpc(sim.node("geth").url, "eth_getBlockByNumber", ["latest", false]);
  assert.equal(behind.execBlock, Number(stalled.number));
  assert.equal(behind.execHash, stalled.hash);
  const sample = await new Sampler({
    publicPorts: [],
    topN: 5,
    dataDirs: [],
    process: null,
    chain: null,
    beacon: adapter,
  }).collect();
  const parsed = agentSampleSchema.parse(sample);
  assert.equal(parsed.beacon?.elOffline, true);
});

test("a dead beacon node is reported, not thrown", async () => {
  const adapter = new BeaconAdapter({ url: new URL("http://127.0.0.1:9"), timeoutMs: 500 });
  const g = await adapter.collect(() => Date.now());
  assert.equal(g.ok, false);
  assert.ok(g.error);
});

test("--beacon-url needs family ethereum", () => {
  const cfg = resolveConfigFromFlags({
    family: "ethereum",
    "beacon-url": "http://127.0.0.1:5052",
    "state-dir": "/tmp/x",
  });
  assert.equal(cfg.beaconUrl?.href, "http://127.0.0.1:5052/");
  assert.throws(() => resolveConfigFromFlags({ family: "hive", "beacon-url": "http://127.0.0.1:5052" }), /Ethereum/);
});
