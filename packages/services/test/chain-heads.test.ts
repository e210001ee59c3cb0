import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { NodeFinalityState } from "@rpcpulse/db/alerting";
import type { NodePublicHeadRow } from "@rpcpulse/db/fleet";
import { measureFinalityStalled, measurePublicHeadBehind } from "../src/alerting/measure-chain-heads.js";
import { describePublicHead } from "@rpcpulse/services/fleet";

const T = Date.parse("2026-11-22T06:00:00Z");
const at = (s: number) => new Date(T + s * 1000);
const check = (fields: Partial<NodePublicHeadRow>): NodePublicHeadRow => ({
  url: "https://rpc.example.test/",
  checkedAt: at(0),
  ok: true,
  latencyMs: 40,
  httpStatus: 200,
  errorClass: null,
  errorMessage: null,
  failingSince: null,
  okAt: at(0),
  headBlock: 1_000,
  headTime: at(-1),
  finalizedBlock: 980,
  nodeHeadBlock: 1_000,
  nodeSampleTime: at(-4),
  ...fields,
});

describe("describePublicHead: public head vs node head", () => {
  const hive = 3_000; // margin max(3, 10) = 10 blocks
  it("within the margin is ok, at the margin behind is flagged", () => {
    assert.equal(describePublicHead({ publicHead: check({ headBlock: 991 }), blockIntervalMs: hive })?.verdict, "ok");
    const behind = describePublicHead({ publicHead: check({ headBlock: 990 }), blockIntervalMs: hive });
    assert.equal(behind?.verdict, "behind");
    assert.equal(behind?.diffBlocks, -10);
    assert.equal(
      behind?.message,
      "Public URL serves #990, 10 blocks behind the node's own head #1,000: a stale backend or cache answers its users.",
    );
  });

  it("ahead only beyond the blocks produced between the node's sample and the check", () => {
    // Sample 30 s before the check on a 3 s chain: 10 blocks expected; 19 ahead is still ok, 20 is not.
    const base = { nodeSampleTime: at(-30) };
    assert.equal(
      describePublicHead({ publicHead: check({ ...base, headBlock: 1_019 }), blockIntervalMs: hive })?.verdict,
      "ok",
    );
    assert.equal(
      describePublicHead({ publicHead: check({ ...base, headBlock: 1_020 }), blockIntervalMs: hive })?.verdict,
      "ahead",
    );
  });

  it("a failing URL keeps the last served head; no check gives null", () => {
    const failing = describePublicHead({
      publicHead: check({ ok: false, errorClass: "timeout", headBlock: 950, failingSince: at(-60), okAt: at(-90) }),
      blockIntervalMs: 12_000,
    });
    assert.equal(failing?.verdict, "failing");
    assert.equal(failing?.error, "timeout");
    assert.equal(failing?.failingSince, at(-60).toISOString());
    assert.match(failing?.message ?? "", /failing \(timeout\); it last served #950, 50 blocks behind/);
    assert.equal(describePublicHead({ publicHead: null, blockIntervalMs: hive }), null);
  });
});

describe("alert values: public_head_behind and finality_stalled", () => {
  const fresh = { freshMs: 300_000 };
  it("public_head_behind: behind blocks, failing counts from the last head or from the failure start", () => {
    assert.equal(measurePublicHeadBehind(check({ headBlock: 985 }), 3_000, at(10), fresh).value, 15);
    assert.equal(measurePublicHeadBehind(check({ headBlock: 1_005 }), 3_000, at(10), fresh).value, 0);
    assert.equal(
      measurePublicHeadBehind(check({ ok: false, headBlock: 900, errorClass: "http" }), 3_000, at(10), fresh).value,
      100,
    );
    const never = check({ ok: false, headBlock: null, okAt: null, failingSince: at(-120), errorClass: "refused" });
    assert.deepEqual(measurePublicHeadBehind(never, 12_000, at(10), fresh), {
      value: 10,
      detail: "public URL failing (refused); no head served yet",
    });
    assert.equal(measurePublicHeadBehind(check({}), 3_000, at(400), fresh).value, null, "stale check");
    assert.equal(measurePublicHeadBehind(undefined, 3_000, at(0), fresh).value, null);
  });

  it("finality_stalled: needs a fresh sample and finality data", () => {
    const state: NodeFinalityState = {
      nodeId: "n",
      sampleTime: at(0),
      headBlock: 2_000,
      finalizedBlock: 1_900,
      finalizedSince: at(-600),
      headAtFinalizedSince: 1_902,
      sinceLookbackStart: false,
    };
    assert.equal(measureFinalityStalled(state, at(5), fresh).value, 600);
    assert.equal(measureFinalityStalled(state, at(400), fresh).value, null);
    assert.equal(measureFinalityStalled({ ...state, finalizedBlock: null }, at(5), fresh).value, null);
    assert.equal(measureFinalityStalled({ ...state, headAtFinalizedSince: 2_000 }, at(5), fresh).value, 0);
  });
});
