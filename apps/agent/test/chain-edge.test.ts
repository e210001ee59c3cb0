import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { chainGroupSchema } from "@rpcpulse/domain";
import { collectChain, createChainAdapter } from "../src/chain/index.js";
import { parseHiveTime } from "../src/chain/hive.js";
import { TIMESTAMP_NOW_KEY, decodeScaleU64 } from "../src/chain/substrate.js";
import type { ApiFamily } from "@rpcpulse/domain";

/**
 * Cases simnet does not model, against small real HTTP servers that answer with the response
 * shapes of the real software (third-party APIs; the agent's own code is not faked).
 */
type Rpc = { id: unknown; method: string; params: unknown };
type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => unknown;

async function withServer(handler: Handler, fn: (url: URL) => Promise<void>): Promise<void> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => void handler(req, body, res));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    await fn(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

function jsonRpcServer(
  answer: (call: Rpc) => { result: unknown } | { error: { code: number; message: string } },
  opts: { batch?: boolean; delayMs?: number } = {},
): Handler {
  return async (_req, body, res) => {
    const parsed = JSON.parse(body) as Rpc | Rpc[];
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    res.setHeader("content-type", "application/json");
    if (Array.isArray(parsed)) {
      if (opts.batch === false) {
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32005, message: "Batched requests are not supported by this server" },
            id: null,
          }),
        );
        return;
      }
      res.end(JSON.stringify(parsed.map((c) => ({ jsonrpc: "2.0", id: c.id, ...answer(c) }))));
      return;
    }
    res.end(JSON.stringify({ jsonrpc: "2.0", id: parsed.id, ...answer(parsed) }));
  };
}

const read = (family: ApiFamily, url: URL, timeoutMs = 3000) =>
  collectChain(createChainAdapter(family, { url, timeoutMs }), () => Date.now()).then((g) => chainGroupSchema.parse(g));

test("steemd: database_api.get_version missing → condenser_api.get_version; time without zone is UTC", async () => {
  await withServer(
    jsonRpcServer((c) => {
      if (c.method === "condenser_api.get_dynamic_global_properties")
        return {
          result: {
            head_block_number: 97000123,
            head_block_id: "05c8a1bb",
            time: "2026-11-22T10:00:03",
            last_irreversible_block_num: 97000108,
          },
        };
      if (c.method === "condenser_api.get_version")
        return { result: { blockchain_version: "0.23.1", steem_revision: "46aa5de0c1a2b3", fc_revision: "46aa5de0" } };
      return { error: { code: -32003, message: "Could not find API database_api" } };
    }),
    async (url) => {
      const g = await read("hive", url);
      assert.equal(g.ok, true);
      assert.equal(g.headBlock, 97000123);
      assert.equal(g.finalizedBlock, 97000108);
      assert.equal(g.headTime, "2026-11-22T10:00:03.000Z");
      assert.equal(g.clientVersion, "0.23.1 (46aa5de0c1a2)");
      assert.equal(g.error, null);
    },
  );
  assert.equal(parseHiveTime("2026-11-22T10:00:03"), Date.UTC(2026, 10, 22, 10, 0, 3));
  assert.equal(parseHiveTime("garbage"), null);
});

test("ethereum: a client without the finalized tag gives finalizedBlock null, the rest stays", async () => {
  await withServer(
    jsonRpcServer((c) => {
      const p = c.params as unknown[];
      if (c.method === "eth_getBlockByNumber" && p[0] === "latest")
        return { result: { number: "0x10d4f", hash: "0xabc", timestamp: "0x6740a1f3" } };
      if (c.method === "eth_getBlockByNumber")
        return { error: { code: -32602, message: "invalid argument 0: hex string without 0x prefix" } };
      if (c.method === "net_peerCount") return { result: "0x19" };
      if (c.method === "eth_syncing")
        return { result: { startingBlock: "0x0", currentBlock: "0x10d4f", highestBlock: "0x20000" } };
      if (c.method === "web3_clientVersion") return { result: "Geth/v1.10.26-stable/linux-amd64/go1.18.5" };
      return { error: { code: -32601, message: "the method does not exist" } };
    }),
    async (url) => {
      const g = await read("ethereum", url);
      assert.equal(g.ok, true);
      assert.equal(g.headBlock, 0x10d4f);
      assert.equal(g.headTime, new Date(0x6740a1f3 * 1000).toISOString());
      assert.equal(g.finalizedBlock, null);
      assert.match(g.error ?? "", /eth_getBlockByNumber: invalid argument/);
      assert.equal(g.peers, 25);
      assert.equal(g.syncing, true);
      assert.equal(g.clientVersion, "Geth/v1.10.26-stable/linux-amd64/go1.18.5");
    },
  );
});

test("substrate: batches disabled → one call each; no Timestamp storage → head time first seen", async () => {
  const methods: string[] = [];
  await withServer(
    jsonRpcServer(
      (c) => {
        methods.push(c.method);
        switch (c.method) {
          case "chain_getHeader":
            return {
              result: {
                parentHash: "0x01",
                number: (c.params as unknown[])[0] === "0xfin" ? "0x1e" : "0x20",
                stateRoot: "0x02",
                extrinsicsRoot: "0x03",
                digest: { logs: [] },
              },
            };
          case "chain_getBlockHash":
            return { result: "0xhead" };
          case "chain_getFinalizedHead":
            return { result: "0xfin" };
          case "system_health":
            return { result: { peers: 0, isSyncing: true, shouldHavePeers: false } };
          case "system_version":
            return { result: "3.0.0-dev-abc" };
          case "state_getStorage":
            return { result: null };
          default:
            return { error: { code: -32601, message: "Method not found" } };
        }
      },
      { batch: false },
    ),
    async (url) => {
      const before = Date.now();
      const g = await read("substrate", url);
      assert.equal(g.ok, true);
      assert.equal(g.headBlock, 32);
      assert.equal(g.finalizedBlock, 30);
      assert.equal(g.peers, 0);
      assert.equal(g.syncing, true);
      assert.equal(g.clientVersion, "3.0.0-dev-abc");
      assert.equal(g.headTimeSource, "first-seen");
      assert.ok(Date.parse(g.headTime!) >= before - 1);
      assert.ok(methods.includes("state_getStorage"));
    },
  );
  const ms = 1_763_805_600_000;
  const le = Buffer.alloc(8);
  le.writeBigUInt64LE(BigInt(ms));
  assert.equal(decodeScaleU64(`0x${le.toString("hex")}`), ms);
  assert.equal(decodeScaleU64("0x1234"), null);
  assert.equal(TIMESTAMP_NOW_KEY.length, 66);
});

test("sidecar: peers and syncing from /node/network, head time from /pallets/timestamp/storage/now", async () => {
  const seen: string[] = [];
  await withServer(
    (req, _body, res) => {
      const u = new URL(req.url!, "http://x");
      seen.push(u.pathname + u.search);
      res.setHeader("content-type", "application/json");
      const send = (v: unknown) => res.end(JSON.stringify(v));
      if (u.pathname === "/blocks/head/header")
        return send({
          parentHash: "0x1",
          number: u.searchParams.get("finalized") === "false" ? "1000" : "998",
          stateRoot: "0x2",
          extrinsicsRoot: "0x3",
          digest: { logs: [] },
        });
      if (u.pathname === "/node/version")
        return send({ clientVersion: "1.20.2-8bbd7df9e6a", clientImplName: "parity-polkadot", chain: "Polkadot" });
      if (u.pathname === "/node/network")
        return send({
          nodeRoles: [{ full: null }],
          numPeers: "42",
          isSyncing: false,
          shouldHavePeers: true,
          localPeerId: "12D3",
          localListenAddresses: [],
          peersInfo: "Cannot query system_peers from node.",
        });
      if (u.pathname === "/pallets/timestamp/storage/now")
        return send({
          at: { hash: "0xaa", height: u.searchParams.get("at") },
          pallet: "timestamp",
          palletIndex: "3",
          storageItem: "now",
          keys: [],
          value: "1763805600000",
        });
      res.statusCode = 404;
      send({ code: 404, message: "not found" });
    },
    async (url) => {
      const g = await read("sidecar", url);
      assert.equal(g.ok, true, g.error ?? "");
      assert.equal(g.headBlock, 1000);
      assert.equal(g.finalizedBlock, 998);
      assert.equal(g.peers, 42);
      assert.equal(g.syncing, false);
      assert.equal(g.headTimeSource, "storage");
      assert.equal(g.headTime, new Date(1763805600000).toISOString());
      assert.equal(g.clientVersion, "parity-polkadot 1.20.2-8bbd7df9e6a");
      assert.ok(seen.includes("/blocks/head/header?finalized=false"));
      assert.ok(seen.includes("/pallets/timestamp/storage/now?at=1000"));
    },
  );
});

test("latency phases: a 40 ms server delay shows in first byte and total, not in connect", async () => {
  await withServer(
    jsonRpcServer(
      () => ({ result: { head_block_number: 1, time: "2026-01-01T00:00:00", last_irreversible_block_num: 1 } }),
      { delayMs: 40 },
    ),
    async (url) => {
      const g = await read("hive", url);
      const l = g.latency!;
      assert.ok(l.connectMs !== null && l.connectMs < 40, `connect ${l.connectMs}`);
      assert.ok(l.firstByteMs >= 39 && l.firstByteMs < 1000, `first byte ${l.firstByteMs}`);
      assert.ok(l.totalMs >= l.firstByteMs);
    },
  );
});

test("a node that never answers times out with ok=false", async () => {
  await withServer(
    () => {
      /* never respond */
    },
    async (url) => {
      const g = await read("ethereum", url, 200);
      assert.equal(g.ok, false);
      assert.match(g.error ?? "", /timeout after 200 ms/);
    },
  );
});
