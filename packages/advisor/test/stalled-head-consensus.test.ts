// stalled-head with the Ethereum consensus client's readings (agent --beacon-url): it names the consensus
// client when it is the cause (behind, el_offline, its Beacon API down), points at the execution client
// when the consensus client is current but optimistic, and says what it said before otherwise.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { evaluateNode, type AdvisorBeaconSample, type AdvisorInput, type SuggestionDraft } from "../src/index.js";
import { consensusClientName } from "../src/rules/consensus-cause.js";
import { geth } from "./catalogue.js";
import { faulty } from "./fixtures.js";

const LH = "Lighthouse/v7.1.0-8d1b2f8/x86_64-linux";

const one = (input: AdvisorInput): SuggestionDraft => {
  const hit = evaluateNode(input).filter((d) => d.ruleId === "stalled-head");
  assert.equal(hit.length, 1, `expected one stalled-head, got ${hit.length}`);
  return hit[0]!;
};

/** Geth stalled for the last 25 of 30 samples, with one beacon reading per sample shaped by `at`. */
function withBeacon(at: (i: number, stalled: boolean) => Partial<AdvisorBeaconSample>): AdvisorInput {
  const input = faulty.stalled(geth, 25, { peers: 40 });
  const beacon = input.window.samples.map((s, i) => ({
    time: s.time,
    ok: true,
    headSlot: 9_000 + i,
    slotsBehind: 0,
    syncDistance: 0,
    syncing: false,
    optimistic: false,
    elOffline: false,
    peers: 70,
    elCheck: "match",
    ...at(i, i >= 5),
  }));
  return { ...input, window: { ...input.window, beacon, beaconVersion: LH } };
}

const shell = (d: SuggestionDraft) => d.snippets.map((s) => s.content).join("\n");

describe("stalled-head names the consensus client when it is the cause", () => {
  it("the beacon node falls behind with the execution head: named, with its slots as evidence", () => {
    const d = one(
      withBeacon((i, stalled) =>
        stalled ? { headSlot: 9_005, slotsBehind: i - 5, syncDistance: i - 5, syncing: i - 5 > 1, peers: 2 } : {},
      ),
    );
    assert.equal(
      d.title,
      "Head #1,005 has not advanced for 242 s (40 peers): its consensus client Lighthouse v7.1.0-8d1b2f8 is 24 slots behind",
    );
    assert.match(
      d.summary,
      /consensus client beside it \(Lighthouse v7\.1\.0-8d1b2f8\) is 24 slots behind the wall clock and syncing with 2 peers/,
    );
    assert.match(d.summary, /The cause is the consensus client, not this node\./);
    const ev = d.evidence.find((e) => e.metric === "beacon_slots_behind");
    assert.deepEqual([ev?.observed, ev?.threshold, ev?.unit], [24, 4, "slots"]);
    assert.equal(ev?.series?.length, 25);
    assert.ok(d.arithmetic.some((a) => /Slots behind at the last reading: 24 .* ≥ 4/.test(a)));
    assert.ok(d.arithmetic.some((a) => /it is the one driving this node/.test(a)));
    assert.match(shell(d), /eth\/v1\/node\/syncing[\s\S]*peer_count[\s\S]*blinded_blocks\/head/);
    assert.equal(d.snippets[0]!.title, "Read-only checks of the consensus client (Beacon API)");
    assert.equal(d.fingerprint, "stalled-head", "the same suggestion, explained better");
  });

  it("el_offline: the consensus client does not reach this node's engine API", () => {
    const d = one(withBeacon((_, stalled) => (stalled ? { elOffline: true, elCheck: "el-offline" } : {})));
    assert.match(d.title, /: Lighthouse v7\.1\.0-8d1b2f8 reports its execution client offline$/);
    assert.match(d.summary, /el_offline.*engine API/);
    assert.match(d.summary, /JWT secret/);
  });

  it("its Beacon API stops answering: the consensus client is down", () => {
    const d = one(
      withBeacon((i) => (i >= 20 ? { ok: false, headSlot: null, slotsBehind: null, syncDistance: null } : {})),
    );
    assert.match(d.title, /its consensus client's Beacon API does not answer$/);
    assert.match(d.summary, /does not answer its Beacon API since 20\d\d-/);
  });

  it("current but optimistic: the execution client is the one stuck, not the consensus client", () => {
    const d = one(withBeacon((_, stalled) => (stalled ? { optimistic: true, elCheck: null } : {})));
    assert.match(d.title, /the execution client has not validated what Lighthouse v7\.1\.0-8d1b2f8 hands it$/);
    assert.match(d.summary, /The execution client is the one stuck/);
    assert.ok(!d.evidence.some((e) => e.metric === "beacon_slots_behind"));
  });

  it("a current consensus client, or none reported: the rule says what it said before", () => {
    const plain = one(faulty.stalled(geth, 25, { peers: 40 }));
    const current = one(withBeacon(() => ({})));
    assert.equal(current.title, plain.title);
    assert.equal(current.summary, plain.summary);
    assert.deepEqual(current.evidence, plain.evidence);
    assert.deepEqual(current.snippets, plain.snippets);
    // Readings only from before the stall say nothing about it.
    const before = withBeacon(() => ({}));
    before.window.beacon = before.window.beacon!.slice(0, 4).map((b) => ({ ...b, slotsBehind: 50 }));
    assert.equal(one(before).title, plain.title);
  });

  it("names: client and version from /eth/v1/node/version", () => {
    assert.equal(consensusClientName(LH), "Lighthouse v7.1.0-8d1b2f8");
    assert.equal(consensusClientName("teku"), "teku");
    assert.equal(consensusClientName(null), "the consensus client");
  });
});
