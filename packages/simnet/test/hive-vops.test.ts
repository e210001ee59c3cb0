import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { z } from "zod";
import type { Simnet } from "../src/index.js";
import type { ManualClock } from "../src/clock.js";
import { rpc, rpcResult, startTestSimnet } from "./helpers.js";

/**
 * producer_missed / producer_reward virtual operations as developers.hive.io documents
 * account_history_api.enum_virtual_ops, account_history_api.get_ops_in_block and condenser_api.get_ops_in_block.
 */
const PRODUCER_MISSED = 0x1000000000;
const apiOp = z.object({
  trx_id: z.string().regex(/^0{40}$/),
  block: z.number().int().positive(),
  trx_in_block: z.literal(4_294_967_295),
  op_in_trx: z.number().int().nonnegative(),
  virtual_op: z.literal(true),
  timestamp: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
  op: z.object({ type: z.string(), value: z.record(z.string(), z.unknown()) }),
  operation_id: z.string(),
});
const enumAnswer = z.object({
  ops: z.array(apiOp),
  ops_by_block: z.array(z.unknown()),
  next_block_range_begin: z.number().int(),
  next_operation_begin: z.number().int(),
});

let simnet: Simnet;
let clock: ManualClock;
let hive: string;

before(async () => {
  ({ simnet, clock } = await startTestSimnet({
    nodes: [
      { name: "hive", family: "hive", network: "hive" },
      { name: "steem", family: "hive", network: "steem" },
      { name: "bare", family: "hive", network: "hive", missingMethods: ["account_history_api.enum_virtual_ops"] },
    ],
  }));
  hive = simnet.node("hive").url;
});
after(() => simnet.close());

test("enum_virtual_ops with the producer_missed filter names the missed block and the witness", async () => {
  const missed = simnet.witnesses("hive").missNextSlot("gtg");
  clock.advance((missed - simnet.node("hive").head() + 2) * 3000);
  const args = { block_range_begin: missed - 5, block_range_end: missed + 2, filter: PRODUCER_MISSED };
  const reversible = enumAnswer.parse(
    await rpcResult(hive, "account_history_api.enum_virtual_ops", { ...args, include_reversible: true }),
  );
  assert.deepEqual(
    reversible.ops.map((o) => [o.block, o.op]),
    [[missed, { type: "producer_missed_operation", value: { producer: "gtg" } }]],
  );
  assert.equal(reversible.next_block_range_begin, missed + 2);
  // Without include_reversible a block past the last irreversible one is not listed yet (hived's default).
  const irreversibleOnly = enumAnswer.parse(await rpcResult(hive, "account_history_api.enum_virtual_ops", args));
  assert.deepEqual(irreversibleOnly.ops, []);
  // Without a filter every virtual operation of the range: a producer_reward per block besides the miss.
  const all = enumAnswer.parse(
    await rpcResult(hive, "account_history_api.enum_virtual_ops", {
      block_range_begin: missed,
      block_range_end: missed + 2,
      include_reversible: true,
    }),
  );
  assert.deepEqual(
    all.ops.map((o) => o.op.type),
    ["producer_missed_operation", "producer_reward_operation", "producer_reward_operation"],
  );
  const bad = await rpc(hive, "account_history_api.enum_virtual_ops", { block_range_begin: 10, block_range_end: 5 });
  assert.ok("error" in bad);
});

test("get_ops_in_block answers appbase and condenser (legacy) shapes", async () => {
  const missed = simnet.witnesses("hive").missNextSlot("blocktrades");
  clock.advance((missed - simnet.node("hive").head() + 1) * 3000);
  const appbase = z.object({ ops: z.array(apiOp) }).parse(
    await rpcResult(hive, "account_history_api.get_ops_in_block", {
      block_num: missed,
      only_virtual: true,
      include_reversible: true,
    }),
  );
  assert.deepEqual(appbase.ops[0]?.op, { type: "producer_missed_operation", value: { producer: "blocktrades" } });
  const legacy = (await rpcResult(hive, "condenser_api.get_ops_in_block", [missed, true, true])) as Array<{
    op: unknown;
    block: number;
  }>;
  assert.deepEqual(legacy[0]?.op, ["producer_missed", { producer: "blocktrades" }]);
  assert.match(String((legacy[1]?.op as [string, { vesting_shares: string }])[1].vesting_shares), /^\d+\.\d{6} VESTS$/);
});

test("Steem has no producer_missed operation; a node without the plugin answers method-not-found", async () => {
  const steem = simnet.node("steem");
  const missed = simnet.witnesses("steem").missNextSlot("justyy");
  clock.advance((missed - steem.head() + 1) * 3000);
  const answer = enumAnswer.parse(
    await rpcResult(steem.url, "account_history_api.enum_virtual_ops", {
      block_range_begin: missed,
      block_range_end: missed + 1,
      include_reversible: true,
    }),
  );
  assert.deepEqual(
    answer.ops.map((o) => o.op.type),
    ["producer_reward_operation"],
  );
  const bare = await rpc(simnet.node("bare").url, "account_history_api.enum_virtual_ops", {
    block_range_begin: 1,
    block_range_end: 2,
  });
  assert.ok("error" in bare && (bare.error as { code: number }).code === -32601);
});
