import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { evaluateNode, type AdvisorInput, type SuggestionDraft } from "../src/index.js";
import { geth, hived, nethermind, steemd, substrate } from "./catalogue.js";
import { finalityStalled } from "./finality-fixtures.js";
import { build, STEP_S } from "./fixtures.js";

const finality = (input: AdvisorInput): SuggestionDraft[] =>
  evaluateNode(input).filter((d) => d.ruleId === "finality-stalled");
const one = (input: AdvisorInput): SuggestionDraft => {
  const hit = finality(input);
  assert.equal(hit.length, 1, `expected one finality-stalled, got ${hit.length}`);
  return hit[0]!;
};
const shell = (d: SuggestionDraft) => d.snippets.map((s) => s.content).join("\n");

describe("finality-stalled: the head moves, the finalized block does not", () => {
  it("Ethereum non-finality (head at the network): explanation, consensus-client checks, how to tell where", () => {
    const d = one(finalityStalled(geth, 100, { depth: 70 }));
    assert.equal(d.kind, "explanation");
    assert.equal(d.severity, "high");
    assert.equal(d.title, "Finalized block #999,996 unchanged for 990 s while the head moved 83 blocks");
    assert.deepEqual(
      d.evidence.map((e) => [e.metric, e.observed, e.threshold, e.unit]),
      [
        ["finalized_unchanged_s", 990, 768, "s"],
        ["finality_lag_blocks", 153, 83, "blocks"],
      ],
    );
    assert.ok(d.arithmetic.includes("Stall threshold: max(300 s, 64 × 12 s block interval) = 768 s"));
    assert.match(d.summary, /keeps up with the network \(lag 0 blocks\), so only finality is stuck/);
    assert.match(d.summary, /consensus client/);
    assert.match(d.summary, /May 2023/);
    assert.match(
      shell(d),
      /eth_getBlockByNumber.*"finalized"[\s\S]*finality_checkpoints[\s\S]*journalctl -u geth\.service/,
    );
    assert.ok(d.sources.some((s) => s.url.includes("beacon-APIs")));
    assert.equal(d.verification.metric, "finality_lag_blocks");
    assert.equal(d.verification.direction, "decrease");
  });

  it("Polkadot GRANDPA stall: GRANDPA explanation and chain_getFinalizedHead / grandpa_roundState checks", () => {
    const d = one(finalityStalled(substrate, 70));
    assert.match(d.summary, /GRANDPA finalizes a block once 2\/3 of the validators vote/);
    assert.match(
      shell(d),
      /chain_getFinalizedHead[\s\S]*system_health[\s\S]*grandpa_roundState[\s\S]*127\.0\.0\.1:9944/,
    );
    assert.ok(d.arithmetic.includes("Stall threshold: max(300 s, 64 × 6 s block interval) = 384 s"));
  });

  it("Hive LIB stuck while the node is also behind: says the lag comes first, compares with a public node", () => {
    const d = one(finalityStalled(hived, 40, { depth: 18, lagBlocks: 30 }));
    assert.match(d.summary, /also 30 blocks behind the network head/);
    assert.match(d.summary, /minority fork/);
    assert.match(shell(d), /last_irreversible_block_num[\s\S]*127\.0\.0\.1:8091[\s\S]*https:\/\/api\.hive\.blog/);
    assert.match(shell(one(finalityStalled(steemd, 40))), /https:\/\/api\.steemit\.com/);
  });

  it("critical at three times the threshold", () => {
    assert.equal(one(finalityStalled(hived, 95)).severity, "critical");
  });
});

describe("finality-stalled negative twins", () => {
  it("healthy Ethereum finality (a 32-block step once per epoch) never fires", () => {
    const input = build({
      node: nethermind,
      n: 180,
      sample: (i) => {
        const head = 1_000_000 + Math.floor((i * STEP_S) / 12);
        return { headBlock: head, finalizedBlock: (Math.floor(head / 32) - 2) * 32 };
      },
    });
    assert.deepEqual(finality(input), []);
  });

  it("a stall just under the threshold, a head that stops too, or no finality data: nothing", () => {
    assert.deepEqual(finality(finalityStalled(geth, 76, { depth: 70 })), [], "760 s < 768 s");
    const stuck = finalityStalled(substrate, 70);
    for (const s of stuck.window.samples.slice(-70)) s.headBlock = stuck.window.samples[110]!.headBlock;
    assert.deepEqual(finality(stuck), [], "the head stopped as well: stalled-head's case");
    const none = finalityStalled(geth, 100);
    for (const s of none.window.samples) s.finalizedBlock = null;
    assert.deepEqual(finality(none), []);
  });
});
