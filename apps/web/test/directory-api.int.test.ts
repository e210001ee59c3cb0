import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertProbeResults, type ProbeResultInput } from "@rpcpulse/db/directory";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import {
  BeaconResponse,
  ChainsResponse,
  EndpointDetailResponse,
  EndpointHistoryResponse,
  rankDirectory,
  RankedListResponse,
  seedDemoDirectory,
} from "@rpcpulse/services/directory";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { z } from "zod";
import {
  readBeaconList,
  readChains,
  readEndpoint,
  readHistory,
  readRankedList,
} from "../src/app/api/v1/_lib/handlers.js";
import { buildOpenApiDocument } from "../src/app/api/v1/_lib/openapi.js";
import { preflightResponse, PUBLIC_CACHE_CONTROL, runPublic } from "../src/app/api/v1/_lib/public-api.js";

/**
 * The public directory API adapters on a real database: every answer validates against its zod
 * schema AND the served OpenAPI document; CORS and cache headers; bad parameters give 400 with a reason.
 */
describe("directory JSON API v1", () => {
  let db: TestDatabase;
  let ids: string[] = [];
  const openapi = buildOpenApiDocument();
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [name, schema] of Object.entries(openapi.components.schemas)) ajv.addSchema(schema as object, name);

  function conformsToOpenApi(name: string, body: unknown): void {
    const validate = ajv.getSchema(name);
    assert.ok(validate, `schema ${name} in the OpenAPI document`);
    assert.ok(validate(body), `${name}: ${JSON.stringify(validate.errors)}`);
  }

  async function call<S extends z.ZodType>(
    fn: () => Promise<unknown>,
    schema: S,
    openapiName: string,
  ): Promise<z.infer<S>> {
    const res = await runPublic(fn);
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.headers.get("cache-control"), PUBLIC_CACHE_CONTROL);
    const etag = res.headers.get("etag") ?? "";
    assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/);
    // A client holding this version gets 304 without a body (weak or strong form of the tag).
    const revalidated = await runPublic(fn, {
      request: new Request("http://rpcpulse.test/", { headers: { "if-none-match": `"stale", W/${etag}` } }),
    });
    assert.equal(revalidated.status, 304);
    assert.equal(await revalidated.text(), "");
    const changed = await runPublic(fn, {
      request: new Request("http://rpcpulse.test/", { headers: { "if-none-match": '"other"' } }),
    });
    assert.equal(changed.status, 200);
    await changed.body?.cancel();
    const body: unknown = await res.json();
    conformsToOpenApi(openapiName, body);
    return schema.parse(body);
  }

  async function badRequest(fn: () => Promise<unknown>, reason: RegExp): Promise<void> {
    const res = await runPublic(fn);
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    const body = (await res.json()) as { status: number; code: string; error: { code: string; message: string } };
    conformsToOpenApi("Error", body);
    assert.equal(body.status, 400);
    assert.equal(body.code, "VALIDATION");
    assert.equal(body.error.code, "VALIDATION");
    assert.match(body.error.message, reason);
  }

  before(async () => {
    db = await createTestDatabase();
    const seeded = await seedDemoDirectory(
      { sql: db.pool },
      {
        nodes: [
          { name: "a", family: "ethereum", network: "ethereum-mainnet", port: 18601 },
          { name: "b", family: "ethereum", network: "ethereum-mainnet", port: 18602 },
        ],
      },
    );
    ids = seeded.map((s) => s.id);
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO vantage_points (name, region, kind) VALUES ('server:api', 'eu-test', 'server') RETURNING id`,
    );
    const now = Date.now();
    const probes: ProbeResultInput[] = [];
    for (let k = 0; k < 25; k++) {
      const t = now - (25 - k) * 30_000;
      ids.forEach((id, i) =>
        probes.push({
          time: new Date(t),
          endpointId: id,
          vantagePointId: rows[0]?.id ?? "",
          ok: i === 0 || k % 2 === 0,
          httpStatus: i === 0 || k % 2 === 0 ? 200 : 502,
          errorClass: i === 0 || k % 2 === 0 ? null : "http",
          ttfbMs: 20 + i * 30,
          totalMs: 21 + i * 30,
          headBlock: 20_000_000 + Math.floor(t / 12_000),
          headTime: new Date(t - 2_000),
        }),
      );
    }
    await insertProbeResults(db.pool, probes);
    await rankDirectory({ pool: db.pool }, { now: new Date(now) });
  });
  after(async () => db?.drop());

  const deps = () => ({ sql: db.pool });
  const url = (q = "") => new URL(`http://test/api/v1/chains/ethereum-mainnet/endpoints${q}`);

  test("GET /chains", async () => {
    const body = await call(() => readChains(deps()), ChainsResponse, "ChainsResponse");
    const eth = body.chains.find((c) => c.network === "ethereum-mainnet");
    assert.equal(eth?.endpoints.total, 2);
    assert.ok(eth?.updatedAt);
  });

  test("GET /chains/{network}/endpoints: ranked list with Beacon fields, filters", async () => {
    const body = await call(
      () => readRankedList(deps(), "ethereum-mainnet", url("?window=1h")),
      RankedListResponse,
      "RankedListResponse",
    );
    assert.deepEqual(
      body.endpoints.map((e) => e.id),
      ids,
      "the always-up endpoint ranks first",
    );
    const first = body.endpoints[0];
    assert.equal(first?.endpoint, first?.url);
    assert.equal(first?.success, 25);
    assert.equal(typeof first?.updated_at, "string");
    const regional = await call(
      () => readRankedList(deps(), "ethereum-mainnet", url("?region=eu-test&window=24h")),
      RankedListResponse,
      "RankedListResponse",
    );
    assert.equal(regional.region, "eu-test");
    assert.equal(regional.endpoints.length, 2);
    const high = await call(
      () => readRankedList(deps(), "ethereum-mainnet", url(`?minScore=${Math.floor((first?.score ?? 0) - 0.01)}`)),
      RankedListResponse,
      "RankedListResponse",
    );
    assert.deepEqual(
      high.endpoints.map((e) => e.id),
      [ids[0]],
    );
    const archive = await call(
      () => readRankedList(deps(), "ethereum-mainnet", url("?capability=archive,websocket")),
      RankedListResponse,
      "RankedListResponse",
    );
    assert.equal(archive.endpoints.length, 0, "no capability check ran: nothing is known to be archive");
  });

  test("GET /beacon/{network}", async () => {
    const body = await call(() => readBeaconList(deps(), "ethereum-mainnet", url()), BeaconResponse, "BeaconResponse");
    assert.equal(body.length, 2);
    assert.equal(body[0]?.endpoint, "http://127.0.0.1:18601");
  });

  test("GET /endpoints/{id} and /history", async () => {
    const detail = await call(
      () => readEndpoint(deps(), ids[0] ?? ""),
      EndpointDetailResponse,
      "EndpointDetailResponse",
    );
    assert.equal(detail.windows.length, 6);
    const history = await call(
      () => readHistory(deps(), ids[1] ?? "", new URL("http://test/x?range=1h")),
      EndpointHistoryResponse,
      "EndpointHistoryResponse",
    );
    assert.equal(
      history.points.reduce((n, p) => n + p.probes, 0),
      25,
    );
  });

  test("bad parameters: 400 with a reason; unknown things: 404", async () => {
    await badRequest(() => readRankedList(deps(), "ethereum-mainnet", url("?window=2h")), /window/);
    await badRequest(() => readRankedList(deps(), "ethereum-mainnet", url("?minScore=abc")), /minScore/);
    await badRequest(() => readRankedList(deps(), "ethereum-mainnet", url("?minScore=101")), /minScore/);
    await badRequest(
      () => readRankedList(deps(), "ethereum-mainnet", url("?capability=archive,teleport")),
      /capability/,
    );
    await badRequest(() => readRankedList(deps(), "ethereum-mainnet", url("?region=EU%20West")), /region/);
    await badRequest(() => readRankedList(deps(), "Bad Net", url()), /network/);
    await badRequest(() => readHistory(deps(), ids[0] ?? "", new URL("http://test/x?range=1y")), /range/);
    await badRequest(() => readHistory(deps(), "nope", new URL("http://test/x")), /UUID/);
    const missing = await runPublic(() => readRankedList(deps(), "nonexistent", url()));
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("access-control-allow-origin"), "*");
    const gone = await runPublic(() => readEndpoint(deps(), "00000000-0000-4000-8000-000000000000"));
    assert.equal(gone.status, 404);
  });

  test("CORS preflight and the OpenAPI document", async () => {
    const pre = preflightResponse();
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get("access-control-allow-origin"), "*");
    assert.match(pre.headers.get("access-control-allow-methods") ?? "", /GET/);
    assert.equal(openapi.openapi, "3.1.0");
    for (const path of [
      "/api/v1/chains",
      "/api/v1/chains/{network}/endpoints",
      "/api/v1/endpoints/{id}",
      "/api/v1/endpoints/{id}/history",
      "/api/v1/beacon/{network}",
    ]) {
      assert.ok(path in openapi.paths, path);
    }
    // The document is not a rubber stamp: a wrong shape is refused.
    const validate = ajv.getSchema("RankedListResponse");
    assert.equal(
      validate?.({ network: "x", window: "2h", region: "all", scoringVersion: "v", updatedAt: null, endpoints: [] }),
      false,
    );
  });
});
