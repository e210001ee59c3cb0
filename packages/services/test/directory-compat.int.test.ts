import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "@rpcpulse/config";
import {
  insertPublicEndpoints,
  replaceEndpointRankings,
  upsertEndpointCapability,
  type EndpointRankingRow,
} from "@rpcpulse/db/directory";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import {
  ChainlistRpcsResponse,
  ErpcUpstreamsResponse,
  listChainlistRpcs,
  listErpcUpstreams,
  listRankedEndpoints,
} from "@rpcpulse/services/directory";

/**
 * The Chainlist and eRPC shapes on real PostgreSQL: endpoints, a capability check and a ranking snapshot
 * written through packages/db, read back through the same ranked-list query as /api/v1/chains/.../endpoints.
 */
describe("directory in Chainlist and eRPC shapes", () => {
  let db: TestDatabase;
  const ids: Record<string, string> = {};
  const updatedAt = new Date(Date.UTC(2026, 10, 22, 3, 0, 0));

  function ranking(name: string, rank: number, status: EndpointRankingRow["status"]): EndpointRankingRow {
    return {
      endpointId: ids[name] as string,
      rank,
      score: 95 - rank * 10,
      status,
      samples: 100,
      okSamples: 99,
      p50Ms: 40 + rank,
      p95Ms: 120,
      lagBlocks: 0,
      availability: 0.99,
      headRegressions: 0,
      components: { uptime: { h24: 0.99 } },
    };
  }

  before(async () => {
    db = await createTestDatabase();
    const inserted = await insertPublicEndpoints(db.pool, [
      {
        network: "ethereum-mainnet",
        family: "ethereum",
        url: "https://fast.example/rpc",
        name: "fast",
        status: "active",
      },
      { network: "ethereum-mainnet", family: "ethereum", url: "https://new.example/rpc", name: "new" },
      {
        network: "ethereum-mainnet",
        family: "ethereum",
        url: "https://gone.example/rpc",
        name: "gone",
        status: "dead",
      },
      {
        network: "ethereum-sepolia",
        family: "ethereum",
        url: "https://test.example/rpc",
        name: "test",
        status: "active",
      },
      { network: "hive", family: "hive", url: "https://hive.example", name: "hive", status: "active" },
    ]);
    for (const [i, name] of ["fast", "new", "gone", "test", "hive"].entries()) ids[name] = inserted[i] as string;
    await upsertEndpointCapability(db.pool, {
      endpointId: ids.fast as string,
      checkedAt: updatedAt,
      archive: true,
      methods: {},
      coverage: 1,
      batch: true,
      logsMaxRange: 10_000,
      websocket: true,
      wsUrl: "wss://fast.example/ws",
      wsNewHeadMs: 800,
      cors: true,
      clientVersion: "Geth/v1.15",
      report: {},
    });
    const session = await db.pool.connect();
    try {
      await replaceEndpointRankings(
        session,
        { network: "ethereum-mainnet", window: "24h", region: "all" },
        [ranking("fast", 1, "healthy"), ranking("new", 2, "probation"), ranking("gone", 3, "dead")],
        updatedAt,
      );
      await replaceEndpointRankings(
        session,
        { network: "hive", window: "24h", region: "all" },
        [ranking("hive", 1, "healthy")],
        updatedAt,
      );
    } finally {
      session.release();
    }
  });
  after(async () => db?.drop());

  test("rpcs.json: the EVM chains keyed by chain id, in the ranked list's order, dead endpoints out", async () => {
    const body = ChainlistRpcsResponse.parse(await listChainlistRpcs({ sql: db.pool }));
    assert.deepEqual(Object.keys(body).sort(), ["1", "11155111"], "only networks with an EIP-155 chain id");
    const mainnet = body["1"]!;
    assert.equal(mainnet.updatedAt, updatedAt.toISOString());
    assert.deepEqual(
      mainnet.rpcs.map((r) => [r.url, r.rpcpulse.rank, r.rpcpulse.status, r.tracking]),
      [
        ["https://fast.example/rpc", 1, "active", null],
        ["wss://fast.example/ws", 1, "active", null],
        ["https://new.example/rpc", 2, "probation", null],
      ],
    );
    assert.equal(mainnet.rpcs[0]?.rpcpulse.endpointId, ids.fast);
    const ranked = await listRankedEndpoints({ sql: db.pool }, { network: "ethereum-mainnet" });
    assert.deepEqual(
      ranked.endpoints.filter((e) => e.status !== "dead").map((e) => e.url),
      ["https://fast.example/rpc", "https://new.example/rpc"],
      "same order as the ranked list",
    );
    assert.deepEqual(body["11155111"]?.rpcs, [], "a network without a ranking snapshot yet has no RPCs");
  });

  test("upstreams.json: eRPC upstreams with chain ids, batch support and the fallback group", async () => {
    const body = ErpcUpstreamsResponse.parse(
      await listErpcUpstreams({ sql: db.pool }, { network: "ethereum-mainnet" }),
    );
    assert.deepEqual(body.upstreams, [
      {
        id: `rpcpulse-${ids.fast}`,
        endpoint: "https://fast.example/rpc",
        type: "evm",
        evm: { chainId: 1 },
        jsonRpc: { supportsBatch: true },
      },
      {
        id: `rpcpulse-${ids.new}`,
        endpoint: "https://new.example/rpc",
        type: "evm",
        evm: { chainId: 1 },
        group: "fallback",
      },
    ]);
    assert.equal(body.window, "24h");
    assert.equal(body.updatedAt, updatedAt.toISOString());
  });

  test("a network without a chain id, or an unknown one, is an error the API maps to 400/404", async () => {
    await assert.rejects(
      listErpcUpstreams({ sql: db.pool }, { network: "hive" }),
      (e) => isAppError(e) && e.code === "VALIDATION",
    );
    await assert.rejects(
      listChainlistRpcs({ sql: db.pool }, { network: "dogecoin" }),
      (e) => isAppError(e) && e.code === "NOT_FOUND",
    );
  });
});
