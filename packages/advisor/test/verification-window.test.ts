import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { evaluateNode } from "../src/index.js";
import { CASES } from "./catalogue.js";
import { faulty } from "./fixtures.js";

const DEFAULT_WINDOW_WORDS = /\b(15|30) min\b|an hour|two hours/;

describe("verification window in effect (AdvisorInput.verifyWindowMinutes)", () => {
  it("lagging: 30 min by default, the override when the app sets one", () => {
    const input = faulty.lagging({ family: "ethereum", blockIntervalMs: 12000 }, 40, 2);
    const plain = evaluateNode(input).find((d) => d.ruleId === "lagging-few-peers")!;
    assert.equal(plain.verification.minimumWindowMinutes, 30);
    assert.match(plain.verification.how, /^Compare lag 30 min before and after/);
    const short = evaluateNode({ ...input, verifyWindowMinutes: 5 }).find((d) => d.ruleId === "lagging-few-peers")!;
    assert.equal(short.verification.minimumWindowMinutes, 5);
    assert.match(short.verification.how, /^Compare lag 5 min before and after/);
  });

  it("every rule of the catalogue states the override, and no default window survives in the text", () => {
    for (const c of CASES) {
      for (const d of evaluateNode({ ...c.input, verifyWindowMinutes: 7 })) {
        const label = `${c.name} → ${d.ruleId}`;
        // 0 = nothing to measure (obsolete settings): stays 0.
        if (d.verification.minimumWindowMinutes === 0) continue;
        assert.equal(d.verification.minimumWindowMinutes, 7, label);
        assert.doesNotMatch(d.verification.how, DEFAULT_WINDOW_WORDS, label);
      }
    }
  });

  it("hours read as words; no or invalid override keeps each rule's minimum", () => {
    const input = faulty.sidecar(4000);
    const hour = evaluateNode({ ...input, verifyWindowMinutes: 60 })[0]!;
    assert.match(hour.verification.how, /an hour before/);
    const three = evaluateNode({ ...input, verifyWindowMinutes: 180 })[0]!;
    assert.match(three.verification.how, /3 hours before/);
    for (const bad of [null, 0, -5, Number.NaN])
      assert.equal(evaluateNode({ ...input, verifyWindowMinutes: bad })[0]!.verification.minimumWindowMinutes, 60);
  });
});
