import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client } from "@hiveio/dhive";
import { z } from "zod";
import type { Simnet } from "../src/index.js";
import { postJson, rpc, rpcResult, startTestSimnet } from "./helpers.js";

/** Shapes of the real responses (hived 1.27 / steemd 0.23), as documented on developers.hive.io. */
const hiveTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
const legacyAsset = (symbol: string) => z.string().regex(new RegExp(`^\\d+\\.\\d{3} ${symbol}$`));
const vests = z.string().regex(/^\d+\.\d{6} VESTS$/);
const nai = (id: string, precision: number) =>
  z.object({ amount: z.string().regex(/^\d+$/), precision: z.literal(precision), nai: z.literal(id) }).strict();

const hiveDgp = z
  .object({
    head_block_number: z.number().int(),
    head_block_id: z.string().regex(/^[0-9a-f]{40}$/),
    time: hiveTime,
    current_witness: z.string(),
    current_supply: legacyAsset("HIVE"),
    virtual_supply: legacyAsset("HIVE"),
    current_hbd_supply: legacyAsset("HBD"),
    total_vesting_fund_hive: legacyAsset("HIVE"),
    total_vesting_shares: vests,
    hbd_interest_rate: z.number().int(),
    last_irreversible_block_num: z.number().int(),
    maximum_block_size: z.number().int(),
    current_aslot: z.number().int(),
    recent_slots_filled: z.string(),
    participation_count: z.number().int(),
    next_maintenance_time: hiveTime,
    dhf_interval_ledger: legacyAsset("HBD"),
  })
  .loose();

const steemDgp = hiveDgp
  .omit({
    current_hbd_supply: true,
    total_vesting_fund_hive: true,
    hbd_interest_rate: true,
    dhf_interval_ledger: true,
    current_supply: true,
    virtual_supply: true,
  })
  .extend({
    current_sbd_supply: legacyAsset("SBD"),
    total_vesting_fund_steem: legacyAsset("STEEM"),
    sbd_interest_rate: z.number().int(),
    current_supply: legacyAsset("STEEM"),
  });

const condenserBlock = z
  .object({
    previous: z.string().regex(/^[0-9a-f]{40}$/),
    timestamp: hiveTime,
    witness: z.string(),
    transaction_merkle_root: z.string().regex(/^[0-9a-f]{40}$/),
    extensions: z.array(z.unknown()),
    witness_signature: z.string().regex(/^[0-9a-f]{130}$/),
    transactions: z.array(
      z
        .object({
          ref_block_num: z.number(),
          ref_block_prefix: z.number(),
          expiration: hiveTime,
          operations: z.array(z.tuple([z.string(), z.record(z.string(), z.unknown())])),
          signatures: z.array(z.string()),
          transaction_id: z.string(),
          block_num: z.number(),
          transaction_num: z.number(),
        })
        .loose(),
    ),
    block_id: z.string().regex(/^[0-9a-f]{40}$/),
    signing_key: z.string().regex(/^STM[1-9A-HJ-NP-Za-km-z]{50}$/),
    transaction_ids: z.array(z.string().regex(/^[0-9a-f]{40}$/)),
  })
  .strict();

const rpcError = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.number(), z.string(), z.null()]),
    error: z.object({ code: z.number().int(), message: z.string() }).loose(),
  })
  .strict();

let simnet: Simnet;
let hive: string;
let steem: string;

before(async () => {
  ({ simnet } = await startTestSimnet({
    nodes: [
      { name: "hive", family: "hive", network: "hive", missingMethods: ["condenser_api.get_accounts"] },
      { name: "hive-full", family: "hive", network: "hive" },
      { name: "steem", family: "hive", network: "steem" },
      { name: "limited", family: "hive", network: "hive", rateLimit: { requestsPerSecond: 1, burst: 3 } },
      { name: "broken", family: "hive", network: "hive", errorRate: 1, errorKind: "http-502" },
    ],
  }));
  hive = simnet.node("hive-full").url;
  steem = simnet.node("steem").url;
});
after(() => simnet.close());

test("get_dynamic_global_properties has the real Hive shape; head_block_id encodes the number; LIB 15-20 behind", async () => {
  const dgp = hiveDgp.parse(await rpcResult(hive, "condenser_api.get_dynamic_global_properties", []));
  assert.equal(Number.parseInt(dgp.head_block_id.slice(0, 8), 16), dgp.head_block_number);
  const behind = dgp.head_block_number - dgp.last_irreversible_block_num;
  assert.ok(behind >= 15 && behind <= 20, `LIB ${behind} behind`);
  const viaCall = (await rpcResult(hive, "call", ["condenser_api", "get_dynamic_global_properties", []])) as {
    head_block_number: number;
  };
  assert.equal(viaCall.head_block_number, dgp.head_block_number);
  const db = (await rpcResult(hive, "database_api.get_dynamic_global_properties", {})) as Record<string, unknown>;
  nai("@@000000013", 3).parse(db.current_hbd_supply);
  nai("@@000000037", 6).parse(db.total_vesting_shares);
});

test("Steem differs where the real one does: SBD/STEEM symbols, sbd/steem field names, get_version", async () => {
  const dgp = steemDgp.parse(await rpcResult(steem, "condenser_api.get_dynamic_global_properties", []));
  assert.ok(!("current_hbd_supply" in dgp));
  const hv = (await rpcResult(hive, "database_api.get_version", {})) as Record<string, unknown>;
  const sv = (await rpcResult(steem, "database_api.get_version", {})) as Record<string, unknown>;
  assert.match(String(hv.blockchain_version), /^1\.27\./);
  assert.equal(hv.chain_id, "beeab0de00000000000000000000000000000000000000000000000000000000");
  assert.ok(typeof hv.hive_revision === "string" && !("steem_revision" in hv));
  assert.match(String(sv.blockchain_version), /^0\.23\./);
  assert.ok(typeof sv.steem_revision === "string");
});

test("get_block: real shape for past blocks, null beyond the head", async () => {
  const dgp = (await rpcResult(hive, "condenser_api.get_dynamic_global_properties", [])) as {
    head_block_number: number;
  };
  const block = condenserBlock.parse(await rpcResult(hive, "condenser_api.get_block", [dgp.head_block_number - 1]));
  assert.equal(Number.parseInt(block.block_id.slice(0, 8), 16), dgp.head_block_number - 1);
  assert.equal(Number.parseInt(block.previous.slice(0, 8), 16), dgp.head_block_number - 2);
  assert.equal(await rpcResult(hive, "condenser_api.get_block", [dgp.head_block_number + 100]), null);
});

test("accounts, account history and ranked posts", async () => {
  const accounts = (await rpcResult(hive, "condenser_api.get_accounts", [["gtg", "no-such-account-x"]])) as Array<
    Record<string, unknown>
  >;
  assert.equal(accounts.length, 1);
  assert.equal(accounts[0]!.name, "gtg");
  legacyAsset("HIVE").parse(accounts[0]!.balance);
  legacyAsset("HBD").parse(accounts[0]!.hbd_balance);
  vests.parse(accounts[0]!.vesting_shares);
  const history = z
    .object({
      history: z.array(
        z.tuple([
          z.number(),
          z
            .object({
              trx_id: z.string(),
              block: z.number(),
              timestamp: hiveTime,
              op: z.object({ type: z.string().endsWith("_operation"), value: z.record(z.string(), z.unknown()) }),
            })
            .loose(),
        ]),
      ),
    })
    .parse(await rpcResult(hive, "account_history_api.get_account_history", { account: "gtg", start: -1, limit: 5 }));
  assert.equal(history.history.length, 5);
  const tooMany = await rpc(hive, "account_history_api.get_account_history", {
    account: "gtg",
    start: -1,
    limit: 1001,
  });
  assert.equal((rpcError.parse(tooMany).error as { code: number }).code, -32003);
  assert.match(JSON.stringify(tooMany.error), /limit of 1001 is greater than maxmimum allowed/);
  const posts = z
    .array(
      z
        .object({
          author: z.string(),
          permlink: z.string(),
          created: hiveTime,
          pending_payout_value: legacyAsset("HBD"),
          stats: z.object({ total_votes: z.number() }).loose(),
        })
        .loose(),
    )
    .parse(await rpcResult(hive, "bridge.get_ranked_posts", { sort: "created", tag: "", observer: "", limit: 10 }));
  assert.equal(posts.length, 10);
  assert.ok(posts[0]!.created >= posts[9]!.created);
  const badSort = rpcError.parse(await rpc(hive, "bridge.get_ranked_posts", { sort: "best" }));
  assert.equal(badSort.error.code, -32602);
});

test("unknown and missing methods answer -32601; wrong params answer hived's assert error", async () => {
  const unknown = rpcError.parse(await rpc(hive, "condenser_api.get_nothing", []));
  assert.equal(unknown.error.code, -32601);
  assert.match(unknown.error.message, /Could not find method get_nothing/);
  const noApi = rpcError.parse(await rpc(hive, "nope_api.get_x", []));
  assert.match(noApi.error.message, /Could not find API nope_api/);
  const missing = rpcError.parse(await rpc(simnet.node("hive").url, "condenser_api.get_accounts", [["gtg"]]));
  assert.equal(missing.error.code, -32601);
  const wrongArity = rpcError.parse(await rpc(hive, "condenser_api.get_block", []));
  assert.equal(wrongArity.error.code, -32003);
  assert.match(wrongArity.error.message, /Expected 1 argument\(s\), was 0/);
});

test("batch requests answer each call with its id; parse errors answer -32700", async () => {
  const res = await postJson(hive, [
    { jsonrpc: "2.0", id: 7, method: "condenser_api.get_dynamic_global_properties", params: [] },
    { jsonrpc: "2.0", id: 8, method: "condenser_api.get_nope", params: [] },
  ]);
  const answers = res.json as Array<Record<string, unknown>>;
  assert.deepEqual(
    answers.map((a) => a.id),
    [7, 8],
  );
  assert.ok("result" in answers[0]! && "error" in answers[1]!);
  const bad = await postJson(hive, "{not json");
  assert.equal((bad.json as { error: { code: number } }).error.code, -32700);
});

test("rate limiting answers HTTP 429 with Retry-After; error injection answers 502", async () => {
  const url = simnet.node("limited").url;
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let i = 0; i < 5; i += 1) {
    const r = await postJson(url, {
      jsonrpc: "2.0",
      id: i,
      method: "condenser_api.get_dynamic_global_properties",
      params: [],
    });
    statuses.push(r.status);
    if (r.status === 429) retryAfter = r.headers.get("retry-after");
  }
  assert.deepEqual(statuses, [200, 200, 200, 429, 429], "burst of 3 on a frozen clock");
  assert.equal(retryAfter, "1");
  const broken = await postJson(simnet.node("broken").url, {
    jsonrpc: "2.0",
    id: 1,
    method: "condenser_api.get_dynamic_global_properties",
    params: [],
  });
  assert.equal(broken.status, 502);
  assert.match(broken.text, /502 Bad Gateway/);
});

test("@hiveio/dhive Client reads the simulated Hive and Steem nodes", async () => {
  for (const [url, symbol] of [
    [hive, "HIVE"],
    [steem, "STEEM"],
  ] as const) {
    const client = new Client([url], { timeout: 5000, failoverThreshold: 0 });
    const props = await client.database.getDynamicGlobalProperties();
    assert.ok(props.head_block_number > 100_000_000);
    assert.ok(String(props.current_supply).endsWith(` ${symbol}`));
    const block = await client.database.getBlock(props.head_block_number - 3);
    assert.equal(block.block_id.slice(0, 8), (props.head_block_number - 3).toString(16).padStart(8, "0"));
    const name = symbol === "HIVE" ? "gtg" : "justyy";
    const [account] = await client.database.getAccounts([name]);
    assert.equal(account?.name, name);
    await assert.rejects(client.call("condenser_api", "get_nothing", []), /Could not find method get_nothing/);
  }
});
