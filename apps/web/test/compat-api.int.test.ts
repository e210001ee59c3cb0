import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertPublicEndpoints, replaceEndpointRankings, upsertEndpointCapability } from "@rpcpulse/db/directory";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { ChainlistRpcsResponse, ErpcUpstreamsResponse } from "@rpcpulse/services/directory";
import { Ajv2020 } from "ajv/dist/2020.js";
import { readChainlistRpcs, readErpcUpstreams } from "../src/app/api/v1/_lib/compat-handlers.js";
import { buildOpenApiDocument } from "../src/app/api/v1/_lib/openapi.js";
import { PUBLIC_CACHE_CONTROL, runPublic } from "../src/app/api/v1/_lib/public-api.js";

/**
 * GET /api/v1/chainlist/rpcs.json and /api/v1/erpc/upstreams.json through their adapters on a real
 * database: bodies validate against the zod schemas AND the served OpenAPI document; CORS, cache
 * headers; bad parameters 400, unknown networks 404.
 */
describe("directory in Chainlist and eRPC shapes (API)", () => {
  let db: TestDatabase;
  const openapi = buildOpenApiDocument();
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [name, schema] of Object.entries(openapi.components.schemas)) ajv.addSchema(schema as object, name);
  const deps = () => ({ sql: db.pool });
  const url = (query = "") => new URL(`http://rpcpulse.test/api/v1/x${query}`);

  async function ok(fn: () => Promise<unknown>, name: string): Promise<unknown> {
    const res = await runPublic(fn);
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.headers.get("cache-control"), PUBLIC_CACHE_CONTROL);
    assert.ok(res.headers.get("etag"));
    const body: unknown = await res.json();
    const validate = ajv.getSchema(name);
    assert.ok(validate, `${name} in the OpenAPI document`);
    assert.ok(validate(body), `${name}: ${JSON.stringify(validate.errors)}`);
    return body;
  }

  async function status(fn: () => Promise<unknown>): Promise<number> {
    const res = await runPublic(fn);
    await res.body?.cancel();
    return res.status;
  }

  before(async () => {
    db = await createTestDatabase();
    const [a, b] = (await insertPublicEndpoints(db.pool, [
      { network: "ethereum-mainnet", family: "ethereum", url: "https://a.example/rpc", name: "a", status: "active" },
      { network: "ethereum-mainnet", family: "ethereum", url: "https://b.example/rpc", name: "b", status: "active" },
    ])) as [string, string];
    const checkedAt = new Date();
    await upsertEndpointCapability(db.pool, {
      endpointId: a,
      checkedAt,
      archive: false,
      methods: {},
      coverage: null,
      batch: true,
      logsMaxRange: null,
      websocket: true,
      wsUrl: "wss://a.example/ws",
      wsNewHeadMs: null,
      cors: true,
      clientVersion: null,
      report: {},
    });
    const row = (endpointId: string, rank: number, st: "healthy" | "degraded") => ({
      endpointId,
      rank,
      score: 90 - rank,
      status: st,
      samples: 10,
      okSamples: 10,
      p50Ms: 30,
      p95Ms: 60,
      lagBlocks: 0,
      availability: 1,
      headRegressions: 0,
      components: {},
    });
    const session = await db.pool.connect();
    try {
      await replaceEndpointRankings(
        session,
        { network: "ethereum-mainnet", window: "24h", region: "all" },
        [row(a, 1, "healthy"), row(b, 2, "degraded")],
        checkedAt,
      );
    } finally {
      session.release();
    }
  });
  after(async () => db?.drop());

  test("GET /chainlist/rpcs.json", async () => {
    const body = ChainlistRpcsResponse.parse(await ok(() => readChainlistRpcs(deps(), url()), "ChainlistRpcsResponse"));
    assert.deepEqual(
      body["1"]?.rpcs.map((r) => r.url),
      ["https://a.example/rpc", "wss://a.example/ws", "https://b.example/rpc"],
    );
    const sepolia = ChainlistRpcsResponse.parse(
      await ok(() => readChainlistRpcs(deps(), url("?network=ethereum-sepolia")), "ChainlistRpcsResponse"),
    );
    assert.deepEqual(Object.keys(sepolia), ["11155111"]);
  });

  test("GET /erpc/upstreams.json", async () => {
    const body = ErpcUpstreamsResponse.parse(
      await ok(() => readErpcUpstreams(deps(), url("?window=24h")), "ErpcUpstreamsResponse"),
    );
    assert.deepEqual(
      body.upstreams.map((u) => [u.endpoint, u.evm.chainId, u.group ?? null, u.jsonRpc?.supportsBatch ?? null]),
      [
        ["https://a.example/rpc", 1, null, true],
        ["https://b.example/rpc", 1, "fallback", null],
      ],
    );
  });

  test("bad parameters: 400; a network without a chain id: 400; an unknown network: 404", async () => {
    assert.equal(await status(() => readErpcUpstreams(deps(), url("?window=2h"))), 400);
    assert.equal(await status(() => readChainlistRpcs(deps(), url("?network=Bad%20Net"))), 400);
    assert.equal(await status(() => readChainlistRpcs(deps(), url("?network=hive"))), 400);
    assert.equal(await status(() => readErpcUpstreams(deps(), url("?network=nonexistent"))), 404);
    for (const path of ["/api/v1/chainlist/rpcs.json", "/api/v1/erpc/upstreams.json"])
      assert.ok(path in openapi.paths, path);
  });
});
