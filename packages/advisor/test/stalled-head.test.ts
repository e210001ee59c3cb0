import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { evaluateNode, type AdvisorInput, type AdvisorSample, type SuggestionDraft } from "../src/index.js";
import { geth, hived, nethermind, substrate } from "./catalogue.js";
import { at, build, faulty, GIB } from "./fixtures.js";

const stalled = (input: AdvisorInput): SuggestionDraft[] =>
  evaluateNode(input).filter((d) => d.ruleId === "stalled-head");
const one = (input: AdvisorInput): SuggestionDraft => {
  const hit = stalled(input);
  assert.equal(hit.length, 1, `expected one stalled-head, got ${hit.length}`);
  return hit[0]!;
};
const shell = (d: SuggestionDraft) =>
  d.snippets
    .filter((s) => s.kind === "shell")
    .map((s) => s.content)
    .join("\n");

describe("stalled-head: the head stops advancing", () => {
  it("Nethermind stuck for 240 s (like the demo's eth-stalled): explanation, checks, /health, sources", () => {
    const d = one(faulty.stalled(nethermind, 25, { peers: 3, lagBlocks: null }));
    assert.equal(d.kind, "explanation");
    assert.equal(d.fingerprint, "stalled-head");
    assert.equal(d.severity, "high");
    assert.equal(d.title, "Head #1,005 has not advanced for 242 s (3 peers)");
    assert.deepEqual(
      d.evidence.map((e) => [e.metric, e.observed, e.threshold, e.unit]),
      [
        ["head_age_ms", 242, 120, "s"],
        ["head_unchanged_s", 240, 120, "s"],
      ],
    );
    assert.equal(d.evidence[0]!.series?.length, 30);
    assert.ok(d.arithmetic.includes("Stall threshold: max(60 s, 10 × 12 s block interval) = 120 s"), d.arithmetic[0]);
    assert.match(d.arithmetic[1]!, /unchanged in the last 25 samples: .* = 240 s$/);
    assert.match(d.summary, /consensus client/);
    assert.match(
      shell(d),
      /eth_syncing[\s\S]*net_peerCount[\s\S]*eth_getBlockByNumber[\s\S]*journalctl -u nethermind\.service/,
    );
    const flags = d.snippets.find((s) => s.kind === "nethermind-flags")!;
    assert.match(flags.content, /--HealthChecks\.Enabled true/);
    assert.ok(d.caveats.some((c) => c.includes("shuts down at 1 %")));
    assert.ok(d.sources.some((s) => s.url.includes("ethereum.org")));
    assert.equal(d.verification.metric, "head_age_ms");
    assert.equal(d.verification.minimumWindowMinutes, 30);
  });

  it("Geth syncing with 0 peers and a nearly full disk: critical, each signal named, no Nethermind flags", () => {
    const d = one(faulty.stalled(geth, 19, { syncing: true, peers: 0, diskFree: 10 * GIB, diskTotal: 1000 * GIB }));
    assert.equal(d.severity, "critical");
    assert.match(d.summary, /reports that it is syncing, yet the head does not move/);
    assert.match(d.summary, /It has no peers\./);
    assert.match(d.summary, /only 1 % free/);
    assert.ok(d.snippets.every((s) => s.kind === "shell"));
    assert.match(shell(d), /journalctl -u geth\.service/);
  });

  it("hived: per-client checks (P2P port, state dir, dynamic global properties)", () => {
    const d = one({
      ...faulty.stalled(hived, 10),
      settings: { clientConfig: { "p2p-endpoint": "0.0.0.0:2002", "shared-file-dir": '"/dev/shm/hived"' } },
    });
    const sh = shell(d);
    assert.match(sh, /database_api\.get_dynamic_global_properties[\s\S]*127\.0\.0\.1:8091/);
    assert.match(sh, /sport = :2002 or dport = :2002/);
    assert.match(sh, /df -h "\$\{HIVED_DATA_DIR:-\.\}" '\/dev\/shm\/hived'/);
    assert.ok(d.arithmetic.includes("Stall threshold: max(60 s, 10 × 3 s block interval) = 60 s"));
    assert.match(d.summary, /P2P port/);
  });

  it("Substrate with 0 peers: system_health / system_syncState checks, critical", () => {
    const d = one(faulty.stalled({ ...substrate, blockIntervalMs: 6000 }, 12, { peers: 0 }));
    assert.equal(d.severity, "critical");
    assert.match(shell(d), /system_health[\s\S]*system_syncState/);
    assert.ok(d.caveats.some((c) => c.includes("shouldHavePeers=false")));
  });

  it("without head numbers, a head age that grows with the clock is a stall too", () => {
    const input = faulty.stalled(geth, 19);
    for (const s of input.window.samples) s.headBlock = null;
    assert.equal(one(input).evidence[1]!.observed, 180);
  });

  it("the verification text follows the window in effect", () => {
    const d = one({ ...faulty.stalled(geth, 19), verifyWindowMinutes: 2 });
    assert.equal(d.verification.minimumWindowMinutes, 2);
    assert.equal(
      d.verification.how,
      "Compare head age 2 min before and after the fix (ignore the minutes of catch-up).",
    );
  });
});

describe("stalled-head negative twins", () => {
  it("a healthy Ethereum node: 12 s slots sampled every 10 s, with missed slots, never fires", () => {
    // Slot k produces a block unless k % 7 === 3 (missed): head age up to 24 s between blocks.
    const produced = (slot: number) => slot % 7 !== 3;
    const input = build({
      node: geth,
      n: 90,
      sample: (i) => {
        const t = i * 10;
        let slot = Math.floor(t / 12);
        while (!produced(slot)) slot--;
        const blocks = Array.from({ length: slot + 1 }, (_, k) => k).filter(produced).length;
        return { headBlock: 1000 + blocks, headAgeMs: (t - slot * 12) * 1000 };
      },
    });
    assert.ok(
      input.window.samples.some((s) => s.headAgeMs! >= 12_000),
      "missed slots are in the data",
    );
    assert.deepEqual(stalled(input), []);
  });

  it("a slow chain: the same 80 s pause fires at 6 s blocks and not at 12 s blocks", () => {
    assert.equal(stalled(faulty.stalled({ ...substrate, blockIntervalMs: 6000 }, 9)).length, 1);
    assert.deepEqual(stalled(faulty.stalled({ ...substrate, blockIntervalMs: 12000 }, 9)), []);
  });

  it("a pause just under the threshold, or too few samples, says nothing", () => {
    assert.deepEqual(stalled(faulty.stalled(geth, 12)), [], "110 s < 120 s");
    assert.deepEqual(stalled(faulty.stalled(hived, 6)), [], "50 s < 60 s");
    const short = faulty.stalled(hived, 10);
    assert.deepEqual(stalled({ ...short, window: { ...short.window, samples: short.window.samples.slice(-2) } }), []);
  });

  it("a node far behind but advancing (old head age, new head each sample) is lagging, not stalled", () => {
    const input = build({ node: geth, sample: () => ({ headAgeMs: 360_000, lagBlocks: 30, peers: 2 }) });
    assert.deepEqual(stalled(input), []);
    const noNumbers = build({ node: geth, sample: () => ({ headBlock: null, headAgeMs: 360_000 }) });
    assert.deepEqual(stalled(noNumbers), [], "age constant: a new head arrives as fast as time passes");
  });

  it("block interval unknown: only a stall over 5 min fires", () => {
    const node = { ...geth, blockIntervalMs: null };
    assert.deepEqual(stalled(faulty.stalled(node, 29)), [], "280 s");
    assert.equal(stalled(faulty.stalled(node, 35, {}, 40)).length, 1, "340 s");
  });

  it("missing head data never reads as a stall", () => {
    const samples: AdvisorSample[] = Array.from({ length: 30 }, (_, i) => ({ time: at(i) }));
    const input = build({ node: geth });
    assert.deepEqual(stalled({ ...input, window: { ...input.window, samples } }), []);
  });
});
