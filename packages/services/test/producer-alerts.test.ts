// Every producer alert rule, measured on hand-made readings; witness parsing of both chains' shapes.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { NodeAroundMiss, ProducerLatest, ProducerMissRow, ProducerStatusRow } from "@rpcpulse/db/producers";
import { measureProducer } from "../src/alerting/measure-producers.js";
import { describeCondition } from "../src/alerting/describe-alert.js";
import { normaliseRuleParams, resolveThresholds } from "../src/alerting/rule-params.js";
import {
  compareVersions,
  describeProducerProblems,
  explainWitnessMiss,
  parseWitness,
} from "@rpcpulse/services/producers";

const NOW = new Date("2026-11-25T01:00:00Z");
const ID = "00000000-0000-4000-8000-0000000000f1";

function producer(latest: Partial<ProducerLatest> | null): ProducerStatusRow {
  return {
    id: ID,
    organizationId: "org",
    kind: "witness",
    network: "hive",
    account: "arcange",
    createdAt: new Date("2026-11-01T00:00:00Z"),
    error: null,
    latest:
      latest === null
        ? null
        : {
            observedAt: new Date(NOW.getTime() - 30_000),
            source: "http://127.0.0.1:18091",
            headBlock: 1_000,
            totalMissed: 12,
            lastConfirmedBlock: 990,
            signingKey: "STM7aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            disabled: false,
            keyChangedAt: null,
            previousSigningKey: null,
            runningVersion: "1.27.11",
            hardforkVote: "1.27.0",
            majorityVersion: "1.27.11",
            feedBase: "0.250 HBD",
            feedQuote: "1.000 HIVE",
            feedUpdatedAt: new Date(NOW.getTime() - 2 * 3_600_000),
            votes: "1000",
            rank: null,
            inSchedule: true,
            ...latest,
          },
  };
}

const miss = (
  minutesAgo: number,
  total: number,
  from: number,
  to: number,
  count = 1,
  missedBlocks: number[] | null = null,
): ProducerMissRow => ({
  producerId: ID,
  detectedAt: new Date(NOW.getTime() - minutesAgo * 60_000),
  fromBlock: from,
  toBlock: to,
  count,
  totalMissed: total,
  missedBlocks,
});

test("witness_missed_block: counts misses in the window and names the newest block", () => {
  const m = measureProducer(
    "witness_missed_block",
    producer({}),
    [miss(5, 12, 981, 981), miss(50, 11, 900, 905)],
    { minutes: 30 },
    NOW,
  );
  assert.equal(m.value, 1);
  assert.match(m.detail ?? "", /block #981/);
  const range = measureProducer("witness_missed_block", producer({}), [miss(1, 13, 990, 995, 2)], { minutes: 30 }, NOW);
  assert.equal(range.value, 2);
  assert.match(range.detail ?? "", /#990–#995/);
  // The producer_missed virtual operations named the exact blocks of the range.
  const exact = measureProducer(
    "witness_missed_block",
    producer({}),
    [miss(1, 13, 990, 995, 2, [991, 994])],
    { minutes: 30 },
    NOW,
  );
  assert.match(exact.detail ?? "", /^blocks #991, #994, seen /);
  const one = measureProducer(
    "witness_missed_block",
    producer({}),
    [miss(1, 13, 990, 995, 1, [993])],
    { minutes: 30 },
    NOW,
  );
  assert.match(one.detail ?? "", /^block #993, seen /);
  assert.equal(measureProducer("witness_missed_block", producer({}), [], { minutes: 30 }, NOW).value, 0);
  assert.equal(measureProducer("witness_missed_block", producer(null), [], { minutes: 30 }, NOW).value, null);
  const text = describeCondition({
    type: "witness_missed_block",
    value: 1,
    thresholds: resolveThresholds("witness_missed_block", {}),
    blockIntervalMs: 3000,
    detail: m.detail,
  });
  assert.match(text, /^1 missed block \(block #981/);
});

test("witness_feed_stale: hours since the last feed; stale reading says nothing", () => {
  const m = measureProducer("witness_feed_stale", producer({}), [], { minutes: 0 }, NOW);
  assert.equal(m.value, 2);
  const never = measureProducer("witness_feed_stale", producer({ feedUpdatedAt: null }), [], { minutes: 0 }, NOW);
  assert.ok((never.value ?? 0) >= 24);
  const old = producer({ observedAt: new Date(NOW.getTime() - 3_600_000) });
  assert.equal(measureProducer("witness_feed_stale", old, [], { minutes: 0 }, NOW).value, null);
});

test("witness_key_changed: the null key, or a change within the window", () => {
  assert.equal(measureProducer("witness_key_changed", producer({}), [], { minutes: 60 }, NOW).value, 0);
  const disabled = measureProducer("witness_key_changed", producer({ disabled: true }), [], { minutes: 60 }, NOW);
  assert.equal(disabled.value, 1);
  assert.match(disabled.detail ?? "", /null key/);
  const changed = producer({ keyChangedAt: new Date(NOW.getTime() - 10 * 60_000), previousSigningKey: "STM6old" });
  assert.equal(measureProducer("witness_key_changed", changed, [], { minutes: 60 }, NOW).value, 1);
  assert.equal(measureProducer("witness_key_changed", changed, [], { minutes: 5 }, NOW).value, 0);
});

test("witness_version_behind: running version against the majority, numerically", () => {
  assert.equal(measureProducer("witness_version_behind", producer({}), [], { minutes: 0 }, NOW).value, 0);
  const behind = producer({ runningVersion: "1.27.9" });
  const m = measureProducer("witness_version_behind", behind, [], { minutes: 0 }, NOW);
  assert.equal(m.value, 1);
  assert.match(m.detail ?? "", /1\.27\.9.*1\.27\.11/);
  assert.equal(compareVersions("1.27.10", "1.27.9"), 1);
  const unknown = producer({ majorityVersion: null });
  assert.equal(measureProducer("witness_version_behind", unknown, [], { minutes: 0 }, NOW).value, null);
});

test("rule params: a missed-block rule needs a window; defaults fill in", () => {
  assert.throws(() => normaliseRuleParams("witness_missed_block", { windowMinutes: 0 }), /window/);
  assert.equal(normaliseRuleParams("witness_feed_stale", {}).threshold, 24);
});

test("parseWitness reads Hive's hbd_* and Steem's sbd_* fields and the null key", () => {
  const base = {
    owner: "arcange",
    votes: "123",
    total_missed: 5,
    last_confirmed_block_num: 100,
    signing_key: "STM1111111111111111111111111111111114T1Anm",
    running_version: "1.27.11",
    hardfork_version_vote: "1.27.0",
  };
  const hive = parseWitness({
    ...base,
    hbd_exchange_rate: { base: "0.250 HBD", quote: "1.000 HIVE" },
    last_hbd_exchange_update: "2026-11-24T23:00:00",
  });
  assert.equal(hive.disabled, true);
  assert.equal(hive.feedBase, "0.250 HBD");
  assert.equal(hive.feedUpdatedAt?.toISOString(), "2026-11-24T23:00:00.000Z");
  const steem = parseWitness({
    ...base,
    sbd_exchange_rate: { base: "0.180 SBD", quote: "1.000 STEEM" },
    last_sbd_exchange_update: "1970-01-01T00:00:00",
  });
  assert.equal(steem.feedBase, "0.180 SBD");
  assert.equal(steem.feedUpdatedAt, null, "never published");
  assert.throws(() => parseWitness({ ...base, total_missed: "x" }));
});

test("the card's verdict lists every problem", () => {
  const v = describeProducerProblems(
    producer({ runningVersion: "1.26.0", feedUpdatedAt: new Date(NOW.getTime() - 30 * 3_600_000) }),
    2,
    NOW,
  );
  assert.equal(v.state, "trouble");
  assert.equal(v.problems.length, 3);
  assert.equal(describeProducerProblems(producer({}), 0, NOW).state, "ok");
  assert.equal(describeProducerProblems(producer(null), 0, NOW).state, "unknown");
});

test("advisor: a miss during the node's own trouble names the evidence and the in-sync backup, never switching", () => {
  const node = (name: string, over: Partial<NodeAroundMiss>) => ({
    nodeId: name,
    name,
    samples: 12,
    maxLagBlocks: 0,
    maxHeadAgeMs: 2_000,
    listenOverflows: 0,
    minMemAvailableShare: 0.4,
    lastLagBlocks: 0,
    ...over,
  });
  const x = explainWitnessMiss(
    [
      node("witness-a", { maxLagBlocks: 12, maxHeadAgeMs: 30_000, listenOverflows: 40, minMemAvailableShare: 0.02 }),
      node("witness-b", {}),
    ],
    { account: "arcange", chain: "hive" },
  );
  assert.equal(x.suspects.length, 1);
  assert.deepEqual(x.suspects[0]?.evidence, [
    "12 blocks behind the network",
    "head not advancing for 30 s",
    "40 listen-queue overflows",
    "only 2.0 % of memory available",
  ]);
  assert.equal(x.backup?.node, "witness-b");
  assert.match(x.backup?.howTo ?? "", /witness_set_properties.*never changes keys/);
  const quiet = explainWitnessMiss([node("witness-a", {})], { account: "arcange", chain: "hive" });
  assert.deepEqual([quiet.suspects.length, quiet.backup], [0, null]);
  const lonely = explainWitnessMiss([node("only", { maxLagBlocks: 5 })], { account: "justyy", chain: "steem" });
  assert.equal(lonely.backup, null, "no second node, no backup");
});
