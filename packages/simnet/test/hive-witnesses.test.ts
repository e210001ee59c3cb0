import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client } from "@hiveio/dhive";
import { z } from "zod";
import { NULL_SIGNING_KEY, type Simnet } from "../src/index.js";
import type { ManualClock } from "../src/clock.js";
import { rpc, rpcResult, startTestSimnet, T0 } from "./helpers.js";

/** Witness objects as developers.hive.io documents condenser_api.get_witness_by_account (hived 1.27). */
const hiveTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
const hiveWitness = z
  .object({
    owner: z.string(),
    votes: z.string().regex(/^\d+$/),
    total_missed: z.number().int().nonnegative(),
    last_confirmed_block_num: z.number().int().positive(),
    signing_key: z.string().regex(/^STM[1-9A-HJ-NP-Za-km-z]{39,60}$/),
    hbd_exchange_rate: z.object({ base: z.string().regex(/ HBD$/), quote: z.string().regex(/ HIVE$/) }),
    last_hbd_exchange_update: hiveTime,
    running_version: z.string().regex(/^\d+\.\d+\.\d+$/),
    hardfork_version_vote: z.string().regex(/^\d+\.\d+\.\d+$/),
  })
  .loose();

let simnet: Simnet;
let clock: ManualClock;
let hive: string;
let steem: string;

before(async () => {
  ({ simnet, clock } = await startTestSimnet({
    nodes: [
      { name: "hive", family: "hive", network: "hive" },
      { name: "steem", family: "hive", network: "steem" },
    ],
    witnesses: [{ network: "hive", account: "arcange", missEveryMinutes: 10, feedStaleHours: 30 }],
  }));
  hive = simnet.node("hive").url;
  steem = simnet.node("steem").url;
});
after(() => simnet.close());

test("get_witness_by_account answers the documented shape; dhive reads it", async () => {
  const w = hiveWitness.parse(await rpcResult(hive, "condenser_api.get_witness_by_account", ["gtg"]));
  assert.equal(w.owner, "gtg");
  const viaDhive = await new Client(hive).call("condenser_api", "get_witness_by_account", ["gtg"]);
  assert.equal((viaDhive as { owner: string }).owner, "gtg");
  assert.equal(await rpcResult(hive, "condenser_api.get_witness_by_account", ["nobody"]), null);
});

test("steem names its feed fields sbd_*; find_witnesses uses NAI assets", async () => {
  const w = (await rpcResult(steem, "condenser_api.get_witness_by_account", ["justyy"])) as Record<string, unknown>;
  assert.ok("sbd_exchange_rate" in w && "last_sbd_exchange_update" in w && !("hbd_exchange_rate" in w));
  const found = (await rpcResult(hive, "database_api.find_witnesses", { owners: ["gtg", "nobody"] })) as {
    witnesses: Array<{ owner: string; hbd_exchange_rate: { base: { nai: string } } }>;
  };
  assert.deepEqual(
    found.witnesses.map((x) => x.owner),
    ["gtg"],
  );
  assert.equal(found.witnesses[0]?.hbd_exchange_rate.base.nai, "@@000000013");
  const bad = await rpc(hive, "database_api.find_witnesses", { owners: "gtg" });
  assert.ok("error" in bad);
});

test("a demanded miss is counted once the slot passes and the block is signed by the next witness", async () => {
  const before = hiveWitness.parse(await rpcResult(hive, "condenser_api.get_witness_by_account", ["gtg"]));
  const missed = simnet.witnesses("hive").missNextSlot("gtg");
  clock.advance((missed - simnet.node("hive").head() + 1) * 3000);
  const afterMiss = hiveWitness.parse(await rpcResult(hive, "condenser_api.get_witness_by_account", ["gtg"]));
  assert.equal(afterMiss.total_missed, before.total_missed + 1);
  assert.ok(afterMiss.last_confirmed_block_num < missed);
  const block = (await rpcResult(hive, "condenser_api.get_block", [missed])) as { witness: string };
  assert.notEqual(block.witness, "gtg");
});

test("a configured witness misses periodically and its feed ages; keys and versions change on demand", async () => {
  const a0 = hiveWitness.parse(await rpcResult(hive, "condenser_api.get_witness_by_account", ["arcange"]));
  const feedAgeH = (Date.parse(`${a0.last_hbd_exchange_update}Z`) - clock.now()) / -3_600_000;
  assert.ok(feedAgeH >= 30, `feed age ${feedAgeH} h`);
  clock.advance(21 * 60_000);
  const a1 = hiveWitness.parse(await rpcResult(hive, "condenser_api.get_witness_by_account", ["arcange"]));
  assert.ok(a1.total_missed >= a0.total_missed + 2, `${a0.total_missed} -> ${a1.total_missed}`);
  assert.equal(a1.last_hbd_exchange_update, a0.last_hbd_exchange_update);

  const book = simnet.witnesses("hive");
  book.setSigningKey("arcange", null);
  book.setRunningVersion("arcange", "1.26.0", "1.26.0");
  const a2 = hiveWitness.parse(await rpcResult(hive, "condenser_api.get_witness_by_account", ["arcange"]));
  assert.equal(a2.signing_key, NULL_SIGNING_KEY);
  assert.equal(a2.running_version, "1.26.0");
  const schedule = (await rpcResult(hive, "condenser_api.get_witness_schedule", [])) as Record<string, unknown>;
  assert.equal(schedule.majority_version, "1.27.11");
  assert.equal((schedule.current_shuffled_witnesses as string[]).length, 21);
});

test("a witness outside the schedule is refused in the config", async () => {
  await assert.rejects(
    startTestSimnet({
      nodes: [{ name: "h", family: "hive", network: "hive" }],
      witnesses: [{ network: "hive", account: "nobody" }],
    }),
    /not a scheduled witness/,
  );
});

test("the control server misses a slot over HTTP and refuses unknown witnesses", async () => {
  const { simnet: controlled } = await startTestSimnet({
    nodes: [{ name: "h", family: "hive", network: "hive" }],
    controlPort: 0,
  });
  try {
    const url = controlled.controlUrl!;
    const miss = await fetch(`${url}/witnesses/hive/gtg/miss`, { method: "POST" });
    const { block } = (await miss.json()) as { block: number };
    assert.ok(block > controlled.node("h").head());
    assert.equal((await fetch(`${url}/witnesses/hive/nobody/miss`, { method: "POST" })).status, 404);
    assert.equal((await fetch(`${url}/witnesses/hive/gtg/miss`)).status, 405);
    const aged = await fetch(`${url}/witnesses/hive/gtg/feed-age?hours=48`, { method: "POST" });
    assert.equal(aged.status, 200);
    const w = (await rpcResult(controlled.node("h").url, "condenser_api.get_witness_by_account", ["gtg"])) as {
      last_hbd_exchange_update: string;
    };
    assert.equal(T0 - Date.parse(`${w.last_hbd_exchange_update}Z`), 48 * 3_600_000);
  } finally {
    await controlled.close();
  }
});

test("get_witnesses_by_vote lists witnesses by votes, descending, from a name", async () => {
  const top = (await rpcResult(hive, "condenser_api.get_witnesses_by_vote", ["", 5])) as Array<{
    owner: string;
    votes: string;
  }>;
  assert.equal(top.length, 5);
  for (let i = 1; i < top.length; i++) assert.ok(BigInt(top[i - 1]!.votes) >= BigInt(top[i]!.votes));
  const from = (await rpcResult(hive, "condenser_api.get_witnesses_by_vote", [top[2]!.owner, 2])) as Array<{
    owner: string;
  }>;
  assert.deepEqual(
    from.map((w) => w.owner),
    [top[2]!.owner, top[3]!.owner],
  );
  assert.ok("error" in (await rpc(hive, "condenser_api.get_witnesses_by_vote", ["", 1001])));
});
