import assert from "node:assert/strict";
import { test } from "node:test";
import { findNetwork } from "@rpcpulse/domain";
import { z } from "zod";
import {
  ChainlistRpcsResponse,
  CompatQuery,
  ErpcUpstreamsResponse,
  presentChainlistRpcs,
  presentErpcUpstreams,
  type CompatEntry,
  type RankedEndpoint,
  type RankedListResponse,
} from "@rpcpulse/services/directory";

/** The Chainlist and eRPC shapes built from ranked lists (pure), checked against their zod schemas. */

const T = "2026-11-22T03:00:00.000Z";

/**
 * The fields the presenters read, in the API's shape; cast rather than parsed with RankedEndpoint, so
 * fields added to the ranked list later do not break this test (the int test reads the real list).
 */
function endpoint(n: number, extra: Partial<RankedEndpoint> = {}): RankedEndpoint {
  const url = `https://eth-${n}.example`;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    url,
    wsUrl: null,
    name: `eth ${n}`,
    provider: null,
    family: "ethereum",
    status: "active",
    health: "healthy",
    rank: n,
    score: 90 - n,
    latency: { p50Ms: 40 + n, p95Ms: 90 },
    uptime: { h24: 0.999, d7: null, d30: null },
    capabilities: {
      archive: false,
      websocket: false,
      trace: false,
      debug: false,
      batch: false,
      cors: true,
      logs: false,
    },
    operatorVerified: false,
    updatedAt: T,
    ...extra,
  } as unknown as RankedEndpoint;
}

function entry(network: string, endpoints: RankedEndpoint[]): CompatEntry {
  const info = findNetwork(network);
  assert.ok(info && info.chainId !== null);
  const list = { network, window: "24h", region: "all", updatedAt: endpoints.length ? T : null, endpoints };
  return { network: { ...info, chainId: info.chainId }, list: list as unknown as RankedListResponse };
}

const entries = [
  entry("ethereum-mainnet", [
    endpoint(1, { wsUrl: "wss://eth-1.example/ws", capabilities: { ...endpoint(1).capabilities, batch: true } }),
    endpoint(2, { status: "probation", health: "probation" }),
    endpoint(3, { health: "degraded" }),
    endpoint(4, { status: "dead", health: "dead" }),
  ]),
  entry("ethereum-sepolia", []),
];

test("Chainlist rpcs.json: keyed by chain id, best first, WebSocket after HTTP, dead left out, tracking null (unknown)", () => {
  const body = ChainlistRpcsResponse.parse(presentChainlistRpcs(entries));
  assert.deepEqual(Object.keys(body), ["1", "11155111"]);
  const mainnet = body["1"]!;
  assert.equal(mainnet.chainId, 1);
  assert.equal(mainnet.network, "ethereum-mainnet");
  assert.deepEqual(
    mainnet.rpcs.map((r) => r.url),
    ["https://eth-1.example", "wss://eth-1.example/ws", "https://eth-2.example", "https://eth-3.example"],
  );
  assert.ok(mainnet.rpcs.every((r) => r.tracking === null && r.trackingDetails === null && r.isOpenSource === null));
  assert.deepEqual(
    mainnet.rpcs.map((r) => r.rpcpulse.rank),
    [1, 1, 2, 3],
  );
  assert.deepEqual(body["11155111"]?.rpcs, []);
  assert.equal(body["11155111"]?.testnet, true);
});

test("eRPC upstreams: one evm upstream per listed endpoint, stable ids, fallback group, batch when checked", () => {
  const body = ErpcUpstreamsResponse.parse(presentErpcUpstreams(entries, "24h"));
  const id = (n: number) => `rpcpulse-00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  assert.deepEqual(body.upstreams, [
    {
      id: id(1),
      endpoint: "https://eth-1.example",
      type: "evm",
      evm: { chainId: 1 },
      jsonRpc: { supportsBatch: true },
    },
    { id: id(2), endpoint: "https://eth-2.example", type: "evm", evm: { chainId: 1 }, group: "fallback" },
    { id: id(3), endpoint: "https://eth-3.example", type: "evm", evm: { chainId: 1 }, group: "fallback" },
  ]);
  assert.equal(body.updatedAt, T);
});

test("schemas reject what the formats forbid, and the query defaults to the 24 h window", () => {
  assert.throws(() => ChainlistRpcsResponse.parse({ mainnet: {} }), z.ZodError);
  const good = presentErpcUpstreams(entries, "24h");
  assert.throws(
    () => ErpcUpstreamsResponse.parse({ ...good, upstreams: [{ ...good.upstreams[0], type: "solana" }] }),
    z.ZodError,
  );
  assert.deepEqual(CompatQuery.parse({}), { window: "24h" });
  assert.throws(() => CompatQuery.parse({ network: "Ethereum Mainnet" }), z.ZodError);
  assert.deepEqual(CompatQuery.parse({ _: "123", window: "7d" }), { window: "7d" }, "unknown parameters are ignored");
});
