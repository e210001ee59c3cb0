// The consensus client beside an Ethereum node, pure parts: the own-EL check from one agent sample,
// the wire group → beacon row, and the consensus_client_behind measurement and wording.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { NodeBeaconLatest } from "@rpcpulse/db/fleet";
import type { AgentSample } from "@rpcpulse/domain";
import { describeCondition } from "../src/alerting/describe-alert.js";
import { measureConsensusBehind } from "../src/alerting/measure-beacon.js";
import { normaliseRuleParams, resolveThresholds } from "../src/alerting/rule-params.js";
import { beaconRowOf, checkExecutionClient } from "../src/ingest/normalise-beacon.js";
import { describeOwnEl, toConsensusClientView } from "../src/fleet/get-node-consensus-client.js";

const HASH_A = `0x${"aa".repeat(32)}`;
const HASH_B = `0x${"bb".repeat(32)}`;
type Chain = NonNullable<AgentSample["chain"]>;
type Beacon = NonNullable<AgentSample["beacon"]>;

const chain = (over: Partial<Chain> = {}): Chain => ({
  family: "ethereum",
  ok: true,
  headBlock: 100,
  headHash: HASH_A,
  headTime: null,
  headTimeSource: null,
  headAgeMs: 4_000,
  finalizedBlock: 36,
  peers: 50,
  syncing: false,
  clientVersion: "Geth/v1.16.1",
  latency: null,
  error: null,
  ...over,
});
const beacon = (over: Partial<Beacon> = {}): Beacon => ({
  ok: true,
  headSlot: 1_000,
  wallSlot: 1_000,
  slotsBehind: 0,
  syncDistance: 0,
  syncing: false,
  optimistic: false,
  elOffline: false,
  peers: 80,
  version: "Lighthouse/v7.1.0-8d1b2f8/x86_64-linux",
  execBlock: 100,
  execHash: HASH_A,
  latency: null,
  error: null,
  ...over,
});

test("own-EL check: same head is a match, another hash at the same height is not", () => {
  assert.equal(checkExecutionClient(chain(), beacon()), "match");
  assert.equal(checkExecutionClient(chain({ headHash: HASH_A.toUpperCase().replace("0X", "0x") }), beacon()), "match");
  assert.equal(checkExecutionClient(chain(), beacon({ execHash: HASH_B })), "hash-mismatch");
});

test("own-EL check: the EL past its beacon node's head is driven by another consensus client", () => {
  assert.equal(checkExecutionClient(chain({ headBlock: 102 }), beacon()), "el-ahead");
  // One block apart: a new slot or a reorg between the two reads; not comparable.
  assert.equal(checkExecutionClient(chain({ headBlock: 101 }), beacon()), null);
  // The beacon node ahead: its EL is importing (optimistic) or a block arrived between the reads.
  assert.equal(checkExecutionClient(chain({ headBlock: 90 }), beacon()), null);
});

test("own-EL check: el_offline while this EL answers; nothing to compare without data", () => {
  assert.equal(checkExecutionClient(chain(), beacon({ elOffline: true })), "el-offline");
  assert.equal(checkExecutionClient(chain({ ok: false, headBlock: null }), beacon({ elOffline: true })), null);
  assert.equal(checkExecutionClient(null, beacon()), null);
  assert.equal(checkExecutionClient(chain(), beacon({ execBlock: undefined, execHash: undefined })), null);
  assert.equal(checkExecutionClient(chain({ headHash: null }), beacon()), null);
  assert.equal(checkExecutionClient(chain(), beacon({ ok: false })), null);
});

test("wire group → beacon row (older agents without the execution head give nulls)", () => {
  const sample = {
    collectedAt: "2026-11-25T04:00:00.000Z",
    chain: chain(),
    beacon: beacon({ execBlock: undefined, execHash: undefined, slotsBehind: 3 }),
  } as AgentSample;
  const row = beaconRowOf(sample);
  assert.equal(row?.time, Date.parse("2026-11-25T04:00:00.000Z"));
  assert.deepEqual(
    [row?.slotsBehind, row?.execBlock, row?.execHash, row?.elBlock, row?.elCheck],
    [3, null, null, 100, null],
  );
  assert.equal(beaconRowOf({ ...sample, beacon: null }), null);
  assert.equal(beaconRowOf({ ...sample, beacon: undefined }), null);
});

const NOW = new Date("2026-11-25T04:00:00Z");
const latest = (over: Partial<NodeBeaconLatest> = {}): NodeBeaconLatest => ({
  nodeId: "n",
  time: new Date(NOW.getTime() - 10_000),
  ok: true,
  headSlot: 990,
  wallSlot: 1_000,
  slotsBehind: 10,
  syncDistance: 10,
  syncing: true,
  optimistic: false,
  elOffline: false,
  peers: 3,
  version: "Lighthouse/v7.1.0-8d1b2f8/x86_64-linux",
  execBlock: 90,
  execHash: HASH_A,
  elBlock: 90,
  elCheck: "match",
  elCheckAt: NOW,
  error: null,
  lastOkAt: new Date(NOW.getTime() - 10_000),
  lastHeadSlot: 990,
  ...over,
});
const FRESH = { freshMs: 5 * 60_000 };

test("consensus_client_behind: slots behind the wall clock, with what the beacon node says", () => {
  const m = measureConsensusBehind(latest(), NOW, FRESH);
  assert.equal(m.value, 10);
  assert.match(
    m.detail ?? "",
    /^Lighthouse\/v7\.1\.0-8d1b2f8: head slot 990 of 1000, sync distance 10, syncing, 3 peers$/,
  );
  assert.equal(measureConsensusBehind(latest({ slotsBehind: null, syncDistance: 7 }), NOW, FRESH).value, 7);
  assert.equal(measureConsensusBehind(latest({ slotsBehind: -1 }), NOW, FRESH).value, 0);
  assert.match(measureConsensusBehind(latest({ elOffline: true }), NOW, FRESH).detail ?? "", /el_offline/);
});

test("consensus_client_behind: a failing Beacon API counts from the last head it served; stale or none says nothing", () => {
  const failing = latest({
    ok: false,
    headSlot: null,
    slotsBehind: null,
    wallSlot: 1_030,
    lastHeadSlot: 990,
    lastOkAt: new Date(NOW.getTime() - 360_000),
    error: "GET /eth/v1/beacon/headers/head: connect ECONNREFUSED",
  });
  const m = measureConsensusBehind(failing, NOW, FRESH);
  assert.equal(m.value, 40);
  assert.match(m.detail ?? "", /Beacon API failing \(GET .*ECONNREFUSED\); last head slot 990/);
  // Without the wall slot: the slots since the last good read (6 min = 30 slots), a lower bound.
  assert.equal(measureConsensusBehind({ ...failing, wallSlot: null }, NOW, FRESH).value, 30);
  assert.equal(measureConsensusBehind({ ...failing, lastHeadSlot: null, lastOkAt: null }, NOW, FRESH).value, null);
  assert.equal(measureConsensusBehind(latest({ time: new Date(NOW.getTime() - 600_000) }), NOW, FRESH).value, null);
  assert.equal(measureConsensusBehind(undefined, NOW, FRESH).value, null);
});

test("consensus_client_behind: threshold in slots, defaults 8 firing / 4 degraded, worded in slots and time", () => {
  const p = normaliseRuleParams("consensus_client_behind", {});
  assert.deepEqual([p.threshold, p.degraded], [8, 4]);
  assert.equal(normaliseRuleParams("consensus_client_behind", { threshold: 32, degraded: 16 }).threshold, 32);
  assert.throws(() => normaliseRuleParams("consensus_client_behind", { threshold: 4, degraded: 8 }), /degraded/);
  const text = describeCondition({
    type: "consensus_client_behind",
    value: 40,
    thresholds: resolveThresholds("consensus_client_behind", p),
    blockIntervalMs: 12_000,
    detail: "Teku: head slot 960 of 1000",
  });
  assert.match(text, /^consensus client 40 slots behind the wall clock \(~8 ?min.*\) \(Teku: head slot 960 of 1000\)$/);
});

test("node page: the own-EL verdict in words, health from slots behind, el_offline and the API", () => {
  assert.equal(describeOwnEl(latest({ elCheck: null, elCheckAt: null }), NOW).state, "unknown");
  const own = describeOwnEl(latest(), NOW);
  assert.equal(own.state, "consistent");
  assert.match(own.text, /consistency, not proof/);
  const ahead = describeOwnEl(latest({ elCheck: "el-ahead", elCheckAt: new Date(NOW.getTime() - 3_600_000) }), NOW);
  assert.equal(ahead.state, "not-own");
  assert.match(ahead.text, /another consensus client drives this node/);
  assert.match(ahead.text, /last comparable reading 2026-11-25T03:00:00\.000Z/);
  assert.equal(describeOwnEl(latest({ elCheck: "hash-mismatch" }), NOW).state, "not-own");
  assert.match(describeOwnEl(latest({ elCheck: "el-offline" }), NOW).text, /engine API/);
  assert.equal(toConsensusClientView(latest({ slotsBehind: 1, syncing: false }), NOW).health, "healthy");
  assert.equal(toConsensusClientView(latest(), NOW).health, "behind");
  assert.equal(toConsensusClientView(latest({ slotsBehind: 0, elOffline: true }), NOW).health, "failing");
  assert.equal(toConsensusClientView(latest({ ok: false }), NOW).health, "failing");
  assert.equal(toConsensusClientView(latest({ time: new Date(NOW.getTime() - 600_000) }), NOW).stale, true);
});
