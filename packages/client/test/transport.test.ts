import assert from "node:assert/strict";
import { after, before, beforeEach, test } from "node:test";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import {
  createEndpointPicker,
  createFailoverTransport,
  createHeadReader,
  createJsonRpcCall,
  FailoverError,
  JsonRpcError,
  jsonRpcHeadOf,
  NoEndpointError,
  type EndpointPicker,
  type JsonRpcRequest,
} from "../src/index.js";
import { rankedBody, startDirectoryFixture, type DirectoryFixture } from "./directory-fixture.js";

/** Real HTTP JSON-RPC against three simulated Ethereum nodes, ranked e1 > e2 > e3 by the fixture API. */

const NETWORK = "ethereum-mainnet";
const clock = new ManualClock(Date.UTC(2026, 10, 22, 3, 0, 0));
let simnet: Simnet;
let api: DirectoryFixture;
const pickers: EndpointPicker[] = [];

before(async () => {
  simnet = await startSimnet(
    {
      seed: "client-transport",
      nodes: ["e1", "e2", "e3"].map((name) => ({ name, family: "ethereum", network: NETWORK, port: 0 })),
    },
    { clock },
  ); // heads only move when told to
  api = await startDirectoryFixture({
    [NETWORK]: rankedBody(
      NETWORK,
      simnet.nodes.map((n) => ({ name: n.name, url: n.url, wsUrl: n.wsUrl })),
    ),
  });
});
after(async () => {
  for (const p of pickers) p.close();
  await api.close();
  await simnet.close();
});
beforeEach(() => {
  for (const name of ["e1", "e2", "e3"]) {
    const node = simnet.node(name);
    node.setErrorRate(0);
    node.setLag(0);
    node.setLatency({ kind: "fixed", ms: 0 });
  }
});

async function newPicker(extra: Partial<Parameters<typeof createEndpointPicker>[0]> = {}): Promise<EndpointPicker> {
  const picker = createEndpointPicker({ network: NETWORK, apiBase: api.url, refreshMs: 0, ...extra });
  pickers.push(picker);
  await picker.ready();
  return picker;
}

const call = createJsonRpcCall();
const url = (name: string): string => simnet.node(name).url;

function transportFor(picker: EndpointPicker, options: { maxAttempts?: number; perAttemptTimeoutMs?: number } = {}) {
  const used: string[] = [];
  const transport = createFailoverTransport<JsonRpcRequest, unknown>(picker, {
    call: (u, req, ctx) => {
      used.push(u);
      return call(u, req, ctx);
    },
    headOf: jsonRpcHeadOf("ethereum"),
    maxAttempts: options.maxAttempts ?? 3,
    perAttemptTimeoutMs: options.perAttemptTimeoutMs ?? 2000,
  });
  return { transport, used };
}

test("HTTP 502 from the best endpoint: the call is answered by the next one and the order changes", async () => {
  const picker = await newPicker();
  const { transport, used } = transportFor(picker);
  simnet.node("e1").setErrorRate(1, "http-502");
  const head = await transport.run({ method: "eth_blockNumber" });
  assert.equal(Number.parseInt(String(head), 16), simnet.node("e2").head());
  assert.deepEqual(used, [url("e1"), url("e2")]);
  assert.equal(picker.current()?.name, "e2");
  assert.equal(picker.health().find((h) => h.url === url("e1"))?.lastFailure, "http");
  // The next call goes straight to e2: e1's breaker is open.
  used.length = 0;
  await transport.run({ method: "eth_chainId" });
  assert.deepEqual(used, [url("e2")]);
});

test("a hanging endpoint is abandoned after perAttemptTimeoutMs", async () => {
  const picker = await newPicker();
  const { transport, used } = transportFor(picker, { perAttemptTimeoutMs: 300 });
  simnet.node("e1").setLatency({ kind: "fixed", ms: 3000 });
  const started = Date.now();
  assert.equal(await transport.run({ method: "eth_chainId" }), "0x1");
  const elapsed = Date.now() - started;
  assert.ok(elapsed >= 290 && elapsed < 1500, `took ${elapsed} ms`);
  assert.deepEqual(used, [url("e1"), url("e2")]);
  assert.equal(picker.health().find((h) => h.url === url("e1"))?.lastFailure, "timeout");
});

test("connection resets and JSON-RPC internal errors fail over too", async () => {
  const picker = await newPicker();
  const { transport } = transportFor(picker);
  simnet.node("e1").setErrorRate(1, "connection-reset");
  simnet.node("e2").setErrorRate(1, "jsonrpc-internal");
  assert.equal(await transport.run({ method: "eth_chainId" }), "0x1");
  assert.equal(picker.current()?.name, "e3");
  assert.deepEqual(
    picker.health().map((h) => [h.url, h.lastFailure]),
    [
      [url("e1"), "error"],
      [url("e2"), "error"],
      [url("e3"), null],
    ],
  );
});

test("stale head: a lagging best endpoint is skipped once a fresher head is known (caller-reported or built-in check)", async () => {
  simnet.node("e1").setLag(20);
  // The caller reports a head it saw elsewhere.
  const picker = await newPicker({ maxLagBlocks: 5 });
  const { transport, used } = transportFor(picker);
  picker.reportHead(url("e3"), simnet.node("e3").head());
  const head = Number.parseInt(String(await transport.run({ method: "eth_blockNumber" })), 16);
  assert.deepEqual(used, [url("e1"), url("e2")]);
  assert.equal(head, simnet.node("e2").head());
  assert.equal(picker.health().find((h) => h.url === url("e1"))?.lastFailure, "stale-head");

  // The built-in head check finds it on its own.
  const checked = await newPicker({
    maxLagBlocks: 5,
    headCheck: { getHead: createHeadReader("ethereum"), intervalMs: 60_000 },
  });
  assert.equal(checked.current()?.name, "e1");
  await checked.checkHeads();
  assert.equal(checked.current()?.name, "e2");
  assert.equal(checked.health().find((h) => h.url === url("e1"))?.stale, true);
  simnet.node("e1").setLag(0);
});

test("a node whose head stops while the chain moves on is caught by the periodic head check", async () => {
  const picker = await newPicker({
    maxLagBlocks: 3,
    headCheck: { getHead: createHeadReader("ethereum"), intervalMs: 100 },
  });
  await picker.checkHeads();
  assert.equal(picker.current()?.name, "e1");
  simnet.node("e1").setStalled(true);
  clock.advance(5 * 12_000); // five Ethereum slots
  const deadline = Date.now() + 3000;
  while (picker.current()?.name === "e1" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(picker.current()?.name, "e2");
  const e1 = picker.health().find((h) => h.url === url("e1"));
  assert.equal(e1?.stale, true);
  assert.equal(e1?.head, simnet.node("e1").head());
  simnet.node("e1").setStalled(false);
  await new Promise((r) => setTimeout(r, 1100)); // past the breaker's first wait (at most 1 s)
  await picker.checkHeads();
  assert.equal(picker.current()?.name, "e1", "caught up: back at its rank");
});

test("every endpoint stale (a halted chain): the freshest answer is returned instead of an error", async () => {
  const picker = await newPicker({ maxLagBlocks: 5 });
  const { transport } = transportFor(picker);
  picker.reportHead("http://elsewhere.test", simnet.node("e1").head() + 100);
  const head = await transport.run({ method: "eth_blockNumber" });
  assert.equal(Number.parseInt(String(head), 16), simnet.node("e1").head());
});

test("all endpoints down: FailoverError lists every attempt, going round again after a backoff", async () => {
  const picker = await newPicker();
  const { transport, used } = transportFor(picker, { maxAttempts: 5 });
  for (const n of ["e1", "e2", "e3"]) simnet.node(n).setErrorRate(1, "http-503");
  const error = await transport.run({ method: "eth_chainId" }).then(
    () => assert.fail("expected a FailoverError"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof FailoverError);
  assert.equal(error.attempts.length, 5);
  assert.deepEqual(
    error.attempts.map((a) => a.kind),
    ["http", "http", "http", "http", "http"],
  );
  assert.equal(new Set(used.slice(0, 3)).size, 3, "first round over three different endpoints");
});

test("a request error (invalid params) is handed back at once and does not hurt the endpoint", async () => {
  const picker = await newPicker();
  const { transport, used } = transportFor(picker);
  const error = await transport.run({ method: "eth_getBalance", params: ["not-an-address", "latest"] }).then(
    () => assert.fail("expected a JSON-RPC error"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof JsonRpcError, String(error));
  assert.deepEqual(used, [url("e1")]);
  assert.equal(picker.current()?.name, "e1");
});

test("no list at all: NoEndpointError", async () => {
  const picker = await newPicker({ network: "kusama" });
  const { transport } = transportFor(picker);
  await assert.rejects(transport.run({ method: "chain_getHeader" }), NoEndpointError);
});
