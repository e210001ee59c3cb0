// The ingest hot path checks batches by hand (src/wire-check/); zod stays the source of truth.
// This corpus test mutates valid batches field by field (boundary numbers, long, astral and lone
// surrogate strings, wrong types, missing and extra keys, long arrays) and requires the fast
// check's decision to equal zod's on every body, and the validator's 400 to word zod's issue.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@rpcpulse/config";
import { agentBatchSchema } from "@rpcpulse/domain";
import { compileFastWireCheck, createWireValidator } from "../src/wire-validator.js";
import { allPaths, getAt, seededRandom, setAt, type Json, type JsonPath } from "@rpcpulse/config/testing";
import { BASES, EMOJI, RICH, clone, edgeValues, mutateValue } from "./support/wire-corpus.js";

describe("wire validator (hand-written check on the hot path) against the zod contract", () => {
  const fast = compileFastWireCheck();
  const validate = createWireValidator();

  it("accepts the valid corpus, like zod", () => {
    for (const base of BASES) {
      assert.equal(agentBatchSchema.safeParse(base).success, true);
      assert.equal(fast(base), true);
      assert.equal(validate(base), base);
    }
  });

  it("decides every mutated batch as zod does (5,000 seeded cases, 1-3 mutations each)", () => {
    const rand = seededRandom(20261122);
    const disagreements: string[] = [];
    let accepted = 0;
    for (let i = 0; i < 5_000; i++) {
      let body = clone(BASES[i % BASES.length] as Json);
      const mutations = 1 + Math.floor(rand() * 3);
      const applied: string[] = [];
      for (let m = 0; m < mutations; m++) {
        const paths = allPaths(body).filter((p) => p.length > 0);
        const path = paths[Math.floor(rand() * paths.length)] as JsonPath;
        const value = mutateValue(rand, getAt(body, path));
        body = setAt(body, path, value);
        applied.push(`${path.join(".")}=${JSON.stringify(value)?.slice(0, 40)}`);
      }
      const zodOk = agentBatchSchema.safeParse(body).success;
      if (zodOk) accepted++;
      if (fast(body) !== zodOk)
        disagreements.push(`case ${i}: zod ${zodOk ? "accepts" : "refuses"}: ${applied.join(", ")}`);
    }
    assert.deepEqual(disagreements.slice(0, 10), []);
    // The corpus exercises both outcomes (not just a pile of obviously broken bodies).
    assert.ok(accepted > 250, `only ${accepted} mutated bodies were valid`);
    assert.ok(accepted < 4_750, `${accepted} mutated bodies were valid: mutations too weak`);
  });

  it("counts string length in code points as zod does (astral characters)", () => {
    const body = clone(BASES[0] as Json);
    // clientVersion allows 256: 256 rockets are 256 code points (512 UTF-16 units).
    setAt(body, ["samples", 0, "chain", "clientVersion"], EMOJI.repeat(256));
    assert.equal(agentBatchSchema.safeParse(body).success, true);
    assert.equal(fast(body), true);
    setAt(body, ["samples", 0, "chain", "clientVersion"], EMOJI.repeat(257));
    assert.equal(agentBatchSchema.safeParse(body).success, false);
    assert.equal(fast(body), false);
  });

  it("lets null through a nullable enum (headTimeSource)", () => {
    const body = clone(BASES[0] as Json);
    setAt(body, ["samples", 0, "chain", "headTimeSource"], null);
    assert.equal(agentBatchSchema.safeParse(body).success, true);
    assert.equal(fast(body), true);
    setAt(body, ["samples", 0, "chain", "headTimeSource"], "guessed");
    assert.equal(fast(body), false);
  });

  it("words a refusal with zod's first issue and the count of the others", () => {
    const body = clone(BASES[0] as Json);
    setAt(body, ["batchSeq"], -1);
    setAt(body, ["samples", 0, "collectedAt"], "yesterday");
    const zod = agentBatchSchema.safeParse(body);
    assert.equal(zod.success, false);
    const first = zod.error!.issues[0]!;
    assert.throws(
      () => validate(body),
      (error: unknown) => {
        assert.ok(isAppError(error));
        assert.equal(error.code, "VALIDATION");
        assert.equal(error.details?.reason, "invalid_batch");
        assert.equal(
          error.message,
          `Invalid batch: ${first.path.join(".")}: ${first.message} (and ${zod.error!.issues.length - 1} more)`,
        );
        return true;
      },
    );
  });
  it("accepts a batch with every optional group filled in, like zod", () => {
    assert.equal(agentBatchSchema.safeParse(RICH).success, true);
    assert.equal(fast(RICH), true);
  });

  it("decides as zod does on every path of that batch set to each edge value of the contract", () => {
    const disagreements: string[] = [];
    let cases = 0;
    for (const path of allPaths(RICH).filter((p) => p.length > 0)) {
      for (const value of edgeValues(getAt(RICH, path))) {
        const body = setAt(clone(RICH), path, value);
        cases++;
        const zodOk = agentBatchSchema.safeParse(body).success;
        if (fast(body) !== zodOk)
          disagreements.push(
            `${path.join(".")}=${JSON.stringify(value)?.slice(0, 60)}: zod ${zodOk ? "accepts" : "refuses"}`,
          );
      }
    }
    assert.deepEqual(disagreements.slice(0, 10), []);
    assert.ok(cases > 10_000, `only ${cases} cases`);
  });
});
