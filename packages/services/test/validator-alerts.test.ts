// Every validator alert rule measured on hand-made readings; sidecar shapes parsed (SS58 check,
// offline events, the set's median, unclaimed payouts, the era's elapsed share).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import type { ValidatorLatest, ValidatorOfflineReportRow, ValidatorStatusRow } from "@rpcpulse/db/producers";
import { describeCondition } from "../src/alerting/describe-alert.js";
import { isValidatorRuleType, measureValidator } from "../src/alerting/measure-validators.js";
import { isEventRuleType, normaliseRuleParams, resolveThresholds } from "../src/alerting/rule-params.js";
import {
  checkSs58Address,
  concatSessionKeys,
  describeValidatorProblems,
  eraProgress,
  findOfflineStashes,
  medianEraPoints,
  StakingPayouts,
  summarisePendingPayouts,
} from "@rpcpulse/services/producers";

const NOW = new Date("2026-11-25T04:00:00Z");
const ID = "00000000-0000-4000-8000-0000000000a1";

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
function encodeBase58(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString("hex")}`);
  let out = "";
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}
function ss58(prefix: number, fill: number): string {
  const body = Buffer.concat([Buffer.from([prefix]), Buffer.alloc(32, fill)]);
  const sum = createHash("blake2b512")
    .update(Buffer.concat([Buffer.from("SS58PRE"), body]))
    .digest()
    .subarray(0, 2);
  return encodeBase58(Buffer.concat([body, sum]));
}
const STASH = ss58(0, 7);

function validator(latest: Partial<ValidatorLatest> | null): ValidatorStatusRow {
  return {
    id: ID,
    organizationId: "org",
    network: "polkadot",
    account: STASH,
    createdAt: new Date("2026-11-01T00:00:00Z"),
    error: null,
    latest:
      latest === null
        ? null
        : {
            observedAt: new Date(NOW.getTime() - 20_000),
            source: "http://127.0.0.1:18080",
            headBlock: 28_000_000,
            activeEra: 1_900,
            eraProgress: 0.5,
            status: "active",
            leftSetAt: null,
            eraPoints: 1_000,
            medianPoints: 1_040,
            setSize: 297,
            commissionPpb: 30_000_000,
            blocked: false,
            sessionKeys: "0x01",
            keysOnNode: true,
            keysNode: "val-1",
            pendingPayoutEras: [],
            pendingPayoutPlanck: "0",
            payoutsCheckedEra: 1_900,
            scannedBlock: 28_000_000,
            ...latest,
          },
  };
}

const report = (minutesAgo: number, block: number): ValidatorOfflineReportRow => ({
  producerId: ID,
  block,
  era: 1_900,
  detectedAt: new Date(NOW.getTime() - minutesAgo * 60_000),
});

test("validator_left_active_set: 1 while waiting or chilled, 0 in the set, no data when stale", () => {
  const m = (l: Partial<ValidatorLatest> | null) =>
    measureValidator("validator_left_active_set", validator(l), [], { minutes: 0 }, NOW);
  assert.equal(m({}).value, 0);
  const left = m({ status: "waiting", leftSetAt: new Date("2026-11-25T03:00:00Z") });
  assert.equal(left.value, 1);
  assert.match(left.detail ?? "", /waiting, not elected, left at era 1900/);
  assert.match(m({ status: "inactive" }).detail ?? "", /chilled/);
  assert.equal(m({ status: "waiting", observedAt: new Date(NOW.getTime() - 11 * 60_000) }).value, null);
  assert.equal(m(null).value, null);
  const text = describeCondition({
    type: "validator_left_active_set",
    value: 1,
    thresholds: resolveThresholds("validator_left_active_set", {}),
    blockIntervalMs: 6000,
    detail: left.detail,
  });
  assert.match(text, /^not in the active set \(waiting, not elected/);
});

test("validator_low_era_points: percent below the median, only after a quarter of the era", () => {
  const m = (l: Partial<ValidatorLatest>) =>
    measureValidator("validator_low_era_points", validator(l), [], { minutes: 0 }, NOW);
  assert.equal(m({ eraPoints: 400, medianPoints: 1_000 }).value, 60);
  assert.equal(m({ eraPoints: 1_200, medianPoints: 1_000 }).value, 0);
  assert.equal(m({ eraPoints: 0, medianPoints: 1_000, eraProgress: 0.2 }).value, null, "too early in the era");
  assert.equal(m({ eraPoints: 0, medianPoints: 0 }).value, null, "an idle set says nothing");
  assert.equal(m({ eraPoints: 0, status: "waiting" }).value, null, "outside the set: the other rule");
  const t = resolveThresholds("validator_low_era_points", {});
  assert.deepEqual([t.threshold, t.degraded], [50, 30]);
  assert.match(
    m({ eraPoints: 100, medianPoints: 1_000 }).detail ?? "",
    /100 points against a median of 1000 in era 1900/,
  );
  // Configurable: fire below 80 % of the median instead.
  assert.equal(normaliseRuleParams("validator_low_era_points", { threshold: 20, degraded: 10 }).threshold, 20);
  assert.throws(() => normaliseRuleParams("validator_low_era_points", { threshold: 101 }), /at most 100/);
});

test("validator_offline_report: reports in the window, newest block named, fires at once", () => {
  const m = (reports: ValidatorOfflineReportRow[]) =>
    measureValidator("validator_offline_report", validator({}), reports, { minutes: 240 }, NOW);
  assert.equal(m([]).value, 0);
  const r = m([report(5, 28_000_020), report(65, 27_999_420), report(300, 27_997_000)]);
  assert.equal(r.value, 2);
  assert.match(r.detail ?? "", /block #28000020/);
  assert.equal(measureValidator("validator_offline_report", validator(null), [], { minutes: 240 }, NOW).value, null);
  assert.ok(isEventRuleType("validator_offline_report"));
  assert.ok(!isEventRuleType("validator_low_era_points"));
  assert.ok(isValidatorRuleType("validator_offline_report") && !isValidatorRuleType("witness_missed_block"));
  assert.throws(() => normaliseRuleParams("validator_offline_report", { windowMinutes: 0 }), /window/);
});

test("SS58: checksum, length and network prefix are checked", () => {
  assert.equal(checkSs58Address(STASH, "polkadot"), null);
  assert.equal(checkSs58Address(ss58(2, 7), "kusama"), null);
  assert.match(checkSs58Address(ss58(2, 7), "polkadot") ?? "", /prefix 2, not polkadot/);
  const typo = STASH.slice(0, 10) + (STASH[10] === "a" ? "b" : "a") + STASH.slice(11);
  assert.match(checkSs58Address(typo, "polkadot") ?? "", /checksum/);
  assert.match(checkSs58Address("0OIl", "polkadot") ?? "", /base58/);
  assert.match(checkSs58Address("1111", "polkadot") ?? "", /32-byte/);
});

test("sidecar shapes: offline events, median, pending payouts, era share, session keys", () => {
  const block = {
    number: "100",
    onInitialize: {
      events: [
        {
          method: { pallet: "imOnline", method: "SomeOffline" },
          data: [[[STASH, { total: "1", own: "1", others: [] }]]],
        },
        { method: { pallet: "balances", method: "Transfer" }, data: ["a", "b", "1"] },
      ],
    },
    extrinsics: [],
    onFinalize: { events: [] },
  };
  assert.deepEqual([...findOfflineStashes(block)], [STASH]);
  assert.equal(findOfflineStashes({ number: "1", extrinsics: [] }).size, 0);
  assert.equal(medianEraPoints(["a", "b", "c"], { a: "10", b: "30" }), 10, "c without points counts as 0");
  assert.equal(medianEraPoints(["a", "b"], { a: "10", b: "30" }), 20);
  assert.equal(medianEraPoints([], {}), 0);
  const payouts = StakingPayouts.parse({
    erasPayouts: [
      {
        era: "10",
        totalEraRewardPoints: "1",
        totalEraPayout: "1",
        payouts: [{ validatorId: STASH, nominatorStakingPayout: "500", claimed: false }],
      },
      {
        era: "11",
        totalEraRewardPoints: "1",
        totalEraPayout: "1",
        payouts: [{ validatorId: STASH, nominatorStakingPayout: "700", claimed: false }],
      },
      {
        era: "12",
        totalEraRewardPoints: "1",
        totalEraPayout: "1",
        payouts: [{ validatorId: STASH, nominatorStakingPayout: "9", claimed: true }],
      },
      { message: "No ErasRewardPoints found for the account in era 13" },
    ],
  });
  assert.deepEqual(summarisePendingPayouts(payouts, STASH), { eras: [10, 11], planck: "1200" });
  assert.equal(
    eraProgress({ eraStartMs: 0, nowMs: 60_000, head: 100, nextEraBlock: 130, blockIntervalMs: 6_000 }),
    0.25,
  );
  assert.equal(eraProgress({ eraStartMs: null, nowMs: 1, head: 1, nextEraBlock: 2, blockIntervalMs: 6_000 }), 0);
  assert.equal(concatSessionKeys({ grandpa: "0xAA", babe: "0xbb" }), "0xaabb");
});

test("the card's verdict names each problem", () => {
  assert.deepEqual(describeValidatorProblems(validator({}), 0), { state: "ok", problems: [] });
  const bad = describeValidatorProblems(
    validator({ eraPoints: 100, medianPoints: 1_000, keysOnNode: false, pendingPayoutEras: [1, 2] }),
    2,
  );
  assert.equal(bad.state, "trouble");
  assert.equal(bad.problems.length, 4);
  assert.match(bad.problems.join(" "), /10 % of the set's median/);
  assert.equal(describeValidatorProblems(validator(null), 0).state, "unknown");
});
