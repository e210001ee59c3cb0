import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createPublicClient, http, webSocket, type Block } from "viem";
import { mainnet } from "viem/chains";
import { WebSocket } from "ws";
import { z } from "zod";
import { waitFor } from "@rpcpulse/config/testing";
import type { Simnet } from "../src/index.js";
import { postJson, rpc, rpcResult, startTestSimnet } from "./helpers.js";

/** Shapes from the Ethereum execution-apis spec (post-Prague block). */
const quantity = z.string().regex(/^0x(0|[1-9a-f][0-9a-f]*)$/);
const data = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-f]{${bytes * 2}}$`));
const addr = data(20);
const header = z.object({
  parentHash: data(32),
  sha3Uncles: data(32),
  miner: addr,
  stateRoot: data(32),
  transactionsRoot: data(32),
  receiptsRoot: data(32),
  logsBloom: data(256),
  difficulty: quantity,
  number: quantity,
  gasLimit: quantity,
  gasUsed: quantity,
  timestamp: quantity,
  extraData: z.string().regex(/^0x([0-9a-f]{2})*$/),
  mixHash: data(32),
  nonce: data(8),
  baseFeePerGas: quantity,
  withdrawalsRoot: data(32),
  blobGasUsed: quantity,
  excessBlobGas: quantity,
  parentBeaconBlockRoot: data(32),
  requestsHash: data(32),
  hash: data(32),
});
const tx = z
  .object({
    blockHash: data(32),
    blockNumber: quantity,
    from: addr,
    gas: quantity,
    gasPrice: quantity,
    maxFeePerGas: quantity,
    maxPriorityFeePerGas: quantity,
    hash: data(32),
    input: z.string(),
    nonce: quantity,
    to: addr,
    transactionIndex: quantity,
    value: quantity,
    type: z.literal("0x2"),
    accessList: z.array(z.unknown()),
    chainId: quantity,
    v: quantity,
    r: data(32),
    s: data(32),
    yParity: quantity,
  })
  .strict();
const block = (full: boolean) =>
  header
    .extend({
      size: quantity,
      transactions: full ? z.array(tx) : z.array(data(32)),
      uncles: z.array(data(32)),
      withdrawals: z.array(
        z.object({ index: quantity, validatorIndex: quantity, address: addr, amount: quantity }).strict(),
      ),
    })
    .strict();
const errorOf = (r: Record<string, unknown>) => z.object({ code: z.number(), message: z.string() }).parse(r.error);

let simnet: Simnet;
let geth: string;
let archive: string;
let nether: string;

before(async () => {
  ({ simnet } = await startTestSimnet({
    nodes: [
      { name: "geth", family: "ethereum", network: "ethereum-mainnet", getLogsMaxRange: 100, peers: 42 },
      {
        name: "archive",
        family: "ethereum",
        network: "ethereum-mainnet",
        archive: true,
        missingMethods: ["debug_traceBlockByNumber"],
      },
      {
        name: "nethermind",
        family: "ethereum",
        network: "ethereum-mainnet",
        clientVersion: "Nethermind/v1.35.2+faa9b9e6/linux-x64/dotnet9.0.11",
        syncing: true,
        lagBlocks: 50,
      },
      { name: "flaky", family: "ethereum", network: "ethereum-mainnet", errorRate: 1, errorKind: "jsonrpc-internal" },
    ],
  }));
  geth = simnet.node("geth").url;
  archive = simnet.node("archive").url;
  nether = simnet.node("nethermind").url;
});
after(() => simnet.close());

test("eth_getBlockByNumber: spec shape for latest (hashes and full txs), finalized ~64+ and safe ~32+ behind, null beyond head", async () => {
  const head = Number(await rpcResult(geth, "eth_blockNumber"));
  const latest = block(false).parse(await rpcResult(geth, "eth_getBlockByNumber", ["latest", false]));
  assert.equal(Number(latest.number), head);
  const full = block(true).parse(await rpcResult(geth, "eth_getBlockByNumber", [latest.number, true]));
  assert.equal(full.hash, latest.hash);
  const finalized = Number(
    ((await rpcResult(geth, "eth_getBlockByNumber", ["finalized", false])) as { number: string }).number,
  );
  const safe = Number(((await rpcResult(geth, "eth_getBlockByNumber", ["safe", false])) as { number: string }).number);
  assert.ok(
    head - finalized >= 64 && head - finalized < 96 && finalized % 32 === 0,
    `finalized ${head - finalized} behind`,
  );
  assert.ok(head - safe >= 32 && head - safe < 64, `safe ${head - safe} behind`);
  assert.equal(await rpcResult(geth, "eth_getBlockByNumber", [`0x${(head + 1).toString(16)}`, false]), null);
  const parent = block(false).parse(await rpcResult(geth, "eth_getBlockByHash", [latest.parentHash, false]));
  assert.equal(Number(parent.number), head - 1);
});

test("invalid params and unknown methods answer geth's errors; Nethermind's wording differs", async () => {
  assert.deepEqual(errorOf(await rpc(geth, "eth_getBlockByNumber", ["latest"])), {
    code: -32602,
    message: "missing value for required argument 1",
  });
  assert.deepEqual(errorOf(await rpc(geth, "eth_getBlockByNumber", ["0x01", false])), {
    code: -32602,
    message: "invalid argument 0: hex number with leading zero digits",
  });
  assert.deepEqual(errorOf(await rpc(geth, "eth_foo", [])), {
    code: -32601,
    message: "the method eth_foo does not exist/is not available",
  });
  assert.equal(errorOf(await rpc(nether, "eth_foo", [])).code, -32601);
  assert.equal(await rpcResult(geth, "web3_clientVersion"), "Geth/v1.16.7-stable-b9f3a3d9/linux-amd64/go1.24.10");
  assert.equal(await rpcResult(geth, "net_peerCount"), "0x2a");
  assert.equal(await rpcResult(geth, "eth_chainId"), "0x1");
});

test("eth_syncing is false, or the sync object with the network head as highestBlock", async () => {
  assert.equal(await rpcResult(geth, "eth_syncing"), false);
  const sync = z
    .object({ startingBlock: quantity, currentBlock: quantity, highestBlock: quantity })
    .loose()
    .parse(await rpcResult(nether, "eth_syncing"));
  assert.equal(Number(sync.highestBlock) - Number(sync.currentBlock), 50);
});

test("old state: archive answers, full node answers geth's missing trie node and Nethermind's error", async () => {
  const head = Number(await rpcResult(geth, "eth_blockNumber"));
  const old = `0x${(head - 1000).toString(16)}`;
  const who = "0xdac17f958d2ee523a2206206994597c13d831ec7";
  quantity.parse(await rpcResult(archive, "eth_getBalance", [who, old]));
  quantity.parse(await rpcResult(geth, "eth_getBalance", [who, `0x${(head - 10).toString(16)}`]));
  const missing = errorOf(await rpc(geth, "eth_getBalance", [who, old]));
  assert.equal(missing.code, -32000);
  assert.match(missing.message, /^missing trie node [0-9a-f]{64} \(path \) state 0x[0-9a-f]{64} is not available$/);
  assert.equal(errorOf(await rpc(nether, "eth_getBalance", [who, old])).code, -32002);
});

test("eth_getLogs: logs in spec shape, range limit error when exceeded", async () => {
  const head = Number(await rpcResult(geth, "eth_blockNumber"));
  const logs = z
    .array(
      z
        .object({
          address: addr,
          topics: z.array(data(32)),
          data: z.string(),
          blockNumber: quantity,
          blockHash: data(32),
          transactionHash: data(32),
          transactionIndex: quantity,
          logIndex: quantity,
          removed: z.boolean(),
        })
        .loose(),
    )
    .parse(await rpcResult(geth, "eth_getLogs", [{ fromBlock: `0x${(head - 20).toString(16)}`, toBlock: "latest" }]));
  assert.ok(logs.length > 0);
  const tooWide = errorOf(
    await rpc(geth, "eth_getLogs", [{ fromBlock: `0x${(head - 500).toString(16)}`, toBlock: "latest" }]),
  );
  assert.deepEqual(tooWide, { code: -32000, message: "exceed maximum block range: 100" });
});

test("traces: geth has debug_traceBlockByNumber and no trace_block; missing methods answer -32601", async () => {
  const traces = (await rpcResult(geth, "debug_traceBlockByNumber", ["latest", { tracer: "callTracer" }])) as Array<{
    txHash: string;
    result: { type: string };
  }>;
  assert.ok(traces.length > 0 && traces.every((t) => t.result.type === "CALL"));
  assert.equal(errorOf(await rpc(geth, "trace_block", ["latest"])).code, -32601);
  assert.equal(errorOf(await rpc(archive, "debug_traceBlockByNumber", ["latest", {}])).code, -32601);
  const parity = (await rpcResult(nether, "trace_block", ["latest"])) as Array<{ type: string }>;
  assert.ok(parity.length > 0 && parity[0]!.type === "call");
});

test("batches, empty batch, internal-error injection", async () => {
  const res = await postJson(geth, [
    { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
    { jsonrpc: "2.0", id: 2, method: "eth_blockNumber" },
    { jsonrpc: "2.0", method: "eth_chainId" },
  ]);
  assert.deepEqual(
    (res.json as Array<{ id: number }>).map((r) => r.id),
    [1, 2],
    "no answer to the notification",
  );
  assert.deepEqual((await postJson(geth, [])).json, {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32600, message: "empty batch" },
  });
  assert.deepEqual(errorOf(await rpc(simnet.node("flaky").url, "eth_chainId")), {
    code: -32603,
    message: "internal error",
  });
});

test("viem over HTTP: getBlockNumber, getBlock, getChainId, getBalance archive vs full", async () => {
  const client = createPublicClient({ chain: mainnet, transport: http(geth, { retryCount: 0 }), cacheTime: 0 });
  const archiveClient = createPublicClient({
    chain: mainnet,
    transport: http(archive, { retryCount: 0 }),
    cacheTime: 0,
  });
  const number = await client.getBlockNumber();
  assert.equal(number, BigInt(simnet.node("geth").head()));
  const latest = await client.getBlock({ blockTag: "latest", includeTransactions: true });
  assert.equal(latest.number, number);
  assert.ok(latest.transactions.length > 0 && typeof latest.transactions[0] === "object");
  const finalized = await client.getBlock({ blockTag: "finalized" });
  assert.ok(number - finalized.number! >= 64n);
  assert.equal(await client.getChainId(), 1);
  const address = "0xdAC17F958D2ee523a2206206994597C13D831ec7";
  assert.equal(typeof (await archiveClient.getBalance({ address, blockNumber: number - 5000n })), "bigint");
  await assert.rejects(client.getBalance({ address, blockNumber: number - 5000n }), /missing trie node/);
});

test("viem over WebSocket: watchBlocks receives newHeads as the shared clock advances", async (t) => {
  const { simnet: live, clock } = await startTestSimnet({
    nodes: [{ name: "ws", family: "ethereum", network: "ethereum-mainnet" }],
  });
  t.after(() => live.close());
  const client = createPublicClient({
    chain: mainnet,
    transport: webSocket(live.node("ws").wsUrl!, { retryCount: 0 }),
  });
  const blocks: Block[] = [];
  const unwatch = client.watchBlocks({ onBlock: (b) => blocks.push(b), onError: (e) => assert.fail(e) });
  const start = BigInt(live.node("ws").head());
  await new Promise((r) => setTimeout(r, 100));
  clock.advance(12_000 * 2);
  await waitFor("two watched blocks", () => blocks.length >= 2);
  unwatch();
  assert.deepEqual(
    blocks.slice(0, 2).map((b) => b.number),
    [start + 1n, start + 2n],
  );
  assert.match(blocks[0]!.hash!, /^0x[0-9a-f]{64}$/);
  await (await client.transport.getRpcClient()).close();
});

test("raw eth_subscribe: id, eth_subscription notification shape, unsubscribe", async (t) => {
  const { simnet: live, clock } = await startTestSimnet({
    nodes: [{ name: "ws", family: "ethereum", network: "ethereum-mainnet" }],
  });
  t.after(() => live.close());
  const ws = new WebSocket(live.node("ws").wsUrl!);
  const messages: Array<Record<string, unknown>> = [];
  ws.on("message", (raw) => messages.push(JSON.parse(String(raw)) as Record<string, unknown>));
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
  await waitFor("the subscription id", () => messages.length === 1);
  const id = z.object({ jsonrpc: z.literal("2.0"), id: z.literal(1), result: data(16) }).parse(messages[0]).result;
  clock.advance(12_000);
  await waitFor("the first notification", () => messages.length === 2);
  const note = z
    .object({
      jsonrpc: z.literal("2.0"),
      method: z.literal("eth_subscription"),
      params: z.object({ subscription: z.literal(id), result: header.strict() }),
    })
    .strict()
    .parse(messages[1]);
  assert.equal(Number(note.params.result.number), live.node("ws").head());
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "eth_unsubscribe", params: [id] }));
  await waitFor("the unsubscribe answer", () => messages.length === 3);
  assert.equal(messages[2]!.result, true);
  clock.advance(24_000);
  await new Promise((r) => setTimeout(r, 80));
  assert.equal(messages.length, 3, "no notification after unsubscribe");
  ws.close();
});
