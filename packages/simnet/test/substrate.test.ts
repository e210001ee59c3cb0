import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ApiPromise, HttpProvider, WsProvider } from "@polkadot/api";
import { WebSocket } from "ws";
import { z } from "zod";
import { waitFor } from "@rpcpulse/config/testing";
import type { Simnet } from "../src/index.js";
import { getJson, rpc, rpcResult, startTestSimnet } from "./helpers.js";

/** Shapes of polkadot-sdk JSON-RPC answers and of substrate-api-sidecar v20 bodies. */
const hash = z.string().regex(/^0x[0-9a-f]{64}$/);
const header = z
  .object({
    parentHash: hash,
    number: z.string().regex(/^0x(0|[1-9a-f][0-9a-f]*)$/),
    stateRoot: hash,
    extrinsicsRoot: hash,
    digest: z.object({ logs: z.array(z.string().regex(/^0x[0-9a-f]+$/)) }).strict(),
  })
  .strict();
const sidecarBlock = z
  .object({
    number: z.string().regex(/^\d+$/),
    hash,
    parentHash: hash,
    stateRoot: hash,
    extrinsicsRoot: hash,
    authorId: z.string().regex(/^1[1-9A-HJ-NP-Za-km-z]{46,47}$/),
    logs: z.array(z.object({ type: z.string(), index: z.string(), value: z.array(z.string()) }).strict()),
    onInitialize: z.object({ events: z.array(z.unknown()) }).strict(),
    extrinsics: z.array(
      z
        .object({
          method: z.object({ pallet: z.string(), method: z.string() }).strict(),
          signature: z.unknown(),
          nonce: z.string().nullable(),
          args: z.record(z.string(), z.unknown()),
          tip: z.string().nullable(),
          hash,
          info: z.record(z.string(), z.unknown()),
          era: z.record(z.string(), z.unknown()),
          events: z.array(z.unknown()),
          success: z.boolean(),
          paysFee: z.boolean(),
        })
        .strict(),
    ),
    onFinalize: z.object({ events: z.array(z.unknown()) }).strict(),
    finalized: z.boolean(),
  })
  .strict();

let simnet: Simnet;
let pruned: string;
let archive: string;
let sidecar: string;

before(async () => {
  ({ simnet } = await startTestSimnet({
    nodes: [
      { name: "pruned", family: "substrate", network: "polkadot", peers: 33 },
      { name: "archive", family: "substrate", network: "polkadot", archive: true, lagBlocks: 1, syncing: true },
      { name: "sidecar", family: "sidecar", network: "polkadot" },
    ],
  }));
  pruned = simnet.node("pruned").url;
  archive = simnet.node("archive").url;
  sidecar = simnet.node("sidecar").url;
});
after(() => simnet.close());

test("chain_getHeader, chain_getBlockHash, chain_getFinalizedHead: real shapes, GRANDPA 2-3 behind", async () => {
  const head = header.parse(await rpcResult(pruned, "chain_getHeader", []));
  const n = Number.parseInt(head.number, 16);
  assert.equal(n, simnet.node("pruned").head());
  assert.ok(head.digest.logs[0]!.startsWith("0x0642414245b501"), "BABE PreRuntime digest");
  assert.ok(head.digest.logs[1]!.startsWith("0x054241424501"), "BABE Seal");
  assert.equal(await rpcResult(pruned, "chain_getBlockHash", [n - 1]), head.parentHash);
  assert.equal(await rpcResult(pruned, "chain_getBlockHash", [n + 5]), null);
  assert.equal(
    await rpcResult(pruned, "chain_getBlockHash", [0]),
    "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
  );
  const finalized = hash.parse(await rpcResult(pruned, "chain_getFinalizedHead", []));
  const fin = header.parse(await rpcResult(pruned, "chain_getHeader", [finalized]));
  const behind = n - Number.parseInt(fin.number, 16);
  assert.ok(behind >= 2 && behind <= 3, `finalized ${behind} behind`);
});

test("system_* answers", async () => {
  assert.deepEqual(await rpcResult(pruned, "system_health", []), {
    peers: 33,
    isSyncing: false,
    shouldHavePeers: true,
  });
  assert.deepEqual(await rpcResult(archive, "system_health", []), {
    peers: 25,
    isSyncing: true,
    shouldHavePeers: true,
  });
  const sync = z
    .object({ startingBlock: z.number(), currentBlock: z.number(), highestBlock: z.number() })
    .strict()
    .parse(await rpcResult(archive, "system_syncState", []));
  assert.equal(sync.highestBlock - sync.currentBlock, 1);
  assert.equal(await rpcResult(pruned, "system_chain", []), "Polkadot");
  assert.match(String(await rpcResult(pruned, "system_version", [])), /^\d+\.\d+\.\d+-[0-9a-f]{11}$/);
  assert.deepEqual(await rpc(pruned, "system_nope", []), {
    jsonrpc: "2.0",
    id: 1,
    error: { code: -32601, message: "Method not found" },
  });
});

test("state_getStorage at an old block: pruned nodes answer State already discarded, archive nodes answer", async () => {
  const key = "0x26aa394eea5630e07c48ae0c9558cef702a5c1b19ab7a04f536c519aca4983ac"; // System.Number
  const n = simnet.node("pruned").head();
  const oldHash = (await rpcResult(pruned, "chain_getBlockHash", [n - 1000])) as string;
  const recent = (await rpcResult(pruned, "chain_getBlockHash", [n - 10])) as string;
  assert.equal(
    Buffer.from(String(await rpcResult(pruned, "state_getStorage", [key, recent])).slice(2), "hex").readUInt32LE(0),
    n - 10,
  );
  const discarded = await rpc(pruned, "state_getStorage", [key, oldHash]);
  assert.deepEqual(discarded.error, {
    code: 4003,
    message: `Client error: UnknownBlock: State already discarded for ${oldHash}`,
  });
  assert.equal(
    Buffer.from(String(await rpcResult(archive, "state_getStorage", [key, oldHash])).slice(2), "hex").readUInt32LE(0),
    n - 1000,
  );
});

test("WebSocket subscriptions: chain_newHead / chain_finalizedHead message shapes and unsubscribe", async (t) => {
  const { simnet: live, clock } = await startTestSimnet({
    nodes: [{ name: "ws", family: "substrate", network: "polkadot" }],
  });
  t.after(() => live.close());
  const ws = new WebSocket(live.node("ws").wsUrl!);
  const messages: Array<Record<string, unknown>> = [];
  ws.on("message", (raw) => messages.push(JSON.parse(String(raw)) as Record<string, unknown>));
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "chain_subscribeNewHeads", params: [] }));
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "chain_subscribeFinalizedHeads", params: [] }));
  await waitFor("both subscription ids and first heads", () => messages.length >= 4);
  const newId = messages.find((m) => m.id === 1)!.result as string;
  assert.match(newId, /^[A-Za-z0-9]{16}$/);
  const note = z
    .object({
      jsonrpc: z.literal("2.0"),
      method: z.literal("chain_newHead"),
      params: z.object({ subscription: z.literal(newId), result: header }).strict(),
    })
    .strict();
  const initial = note.parse(messages.find((m) => m.method === "chain_newHead"));
  assert.equal(Number.parseInt(initial.params.result.number, 16), live.node("ws").head());
  assert.ok(messages.some((m) => m.method === "chain_finalizedHead"));
  clock.advance(6000);
  await waitFor("a second new head", () => messages.filter((m) => m.method === "chain_newHead").length === 2);
  const numberKey = "0x26aa394eea5630e07c48ae0c9558cef702a5c1b19ab7a04f536c519aca4983ac";
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "state_subscribeStorage", params: [[numberKey]] }));
  await waitFor("a storage notification", () => messages.some((m) => m.method === "state_storage"));
  const storage = z
    .object({ block: hash, changes: z.array(z.tuple([z.string(), z.string().nullable()])) })
    .strict()
    .parse((messages.find((m) => m.method === "state_storage")!.params as { result: unknown }).result);
  assert.equal(Buffer.from(storage.changes[0]![1]!.slice(2), "hex").readUInt32LE(0), live.node("ws").head());
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "chain_unsubscribeNewHeads", params: [newId] }));
  await waitFor("the unsubscribe answer", () => messages.some((m) => m.id === 3));
  assert.equal(messages.find((m) => m.id === 3)!.result, true);
  clock.advance(12_000);
  await new Promise((r) => setTimeout(r, 80));
  assert.equal(messages.filter((m) => m.method === "chain_newHead").length, 2);
  ws.close();
});

test("@polkadot/api: WsProvider and HttpProvider raw calls, subscription through provider.subscribe", async () => {
  const provider = new WsProvider(simnet.node("pruned").wsUrl!, false);
  await provider.connect();
  await provider.isReady;
  try {
    const h = header.parse(await provider.send("chain_getHeader", []));
    assert.equal(Number.parseInt(h.number, 16), simnet.node("pruned").head());
    const got = await new Promise<unknown>((resolve, reject) => {
      provider
        .subscribe("chain_newHead", "chain_subscribeNewHeads", [], (error: Error | null, value: unknown) =>
          error ? reject(error) : resolve(value),
        )
        .catch(reject);
    });
    header.parse(got);
  } finally {
    await provider.disconnect();
  }
  const httpProvider = new HttpProvider(pruned);
  assert.deepEqual(await httpProvider.send("system_health", []), {
    peers: 33,
    isSyncing: false,
    shouldHavePeers: true,
  });
});

test("@polkadot/api ApiPromise.create over WsProvider, then rpc.chain.getHeader and query.system.number", async () => {
  const api = await ApiPromise.create({
    provider: new WsProvider(simnet.node("pruned").wsUrl!),
    noInitWarn: true,
    throwOnConnect: true,
  });
  try {
    assert.equal(api.genesisHash.toHex(), "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3");
    assert.equal(api.runtimeVersion.specName.toString(), "polkadot");
    const head = await api.rpc.chain.getHeader();
    assert.equal(head.number.toNumber(), simnet.node("pruned").head());
    assert.ok(head.digest.logs[0]!.isPreRuntime && head.digest.logs[1]!.isSeal);
    const number = await api.query.system!.number!();
    assert.equal(Number(number.toString()), simnet.node("pruned").head());
    const health = await api.rpc.system.health();
    assert.equal(health.peers.toNumber(), 33);
  } finally {
    await api.disconnect();
  }
});

test("sidecar: /blocks/head (finalized by default), /blocks/{id}, header, node version, errors", async () => {
  const head = simnet.node("sidecar").head();
  const fin = sidecarBlock.parse((await getJson(`${sidecar}/blocks/head`)).json);
  assert.ok(head - Number(fin.number) >= 2 && fin.finalized);
  const best = sidecarBlock.parse((await getJson(`${sidecar}/blocks/head?finalized=false`)).json);
  assert.equal(Number(best.number), head);
  const byHash = sidecarBlock.parse((await getJson(`${sidecar}/blocks/${best.parentHash}`)).json);
  assert.equal(Number(byHash.number), head - 1);
  const signed = byHash.extrinsics.filter((x) => x.paysFee);
  const noFees = sidecarBlock.parse((await getJson(`${sidecar}/blocks/${head - 1}?noFees=true`)).json);
  assert.ok(noFees.extrinsics.every((x) => Object.keys(x.info).length === 0));
  assert.ok(signed.every((x) => typeof x.info.partialFee === "string"));
  const hdr = (await getJson(`${sidecar}/blocks/head/header?finalized=false`)).json as {
    number: string;
    digest: { logs: Array<Record<string, unknown>> };
  };
  assert.equal(hdr.number, String(head));
  assert.ok("preRuntime" in hdr.digest.logs[0]! && "seal" in hdr.digest.logs[1]!);
  assert.deepEqual((await getJson(`${sidecar}/node/version`)).json, {
    clientVersion: "1.20.2-8bbd7df9e6a",
    clientImplName: "parity-polkadot",
    chain: "Polkadot",
  });
  const tooHigh = await getJson(`${sidecar}/blocks/${head + 10}`);
  assert.equal(tooHigh.status, 400);
  assert.equal(
    (tooHigh.json as { code: number; message: string }).message,
    `Specified block number is larger than the current largest block. The largest known block number is ${head}.`,
  );
  const garbage = await getJson(`${sidecar}/blocks/abc`);
  assert.equal(garbage.status, 400);
  assert.match(
    (garbage.json as { message: string }).message,
    /Block IDs must be either 32-byte hex strings or non-negative decimal integers/,
  );
});
