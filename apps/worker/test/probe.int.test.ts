// The probe consumer inside the real worker: recurring directory jobs probe simnet endpoints on
// loopback (PROBE_ALLOW_PRIVATE=true), store probe_results, check capabilities and write rankings.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createLogger } from "@rpcpulse/config";
import { createTestDatabase, type TestDatabase, waitFor } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, type Redis } from "@rpcpulse/queue";
import { seedDemoDirectory } from "@rpcpulse/services/directory";
import { startSimnet, type Simnet } from "@rpcpulse/simnet";
import { parseWorkerEnv } from "../src/env.js";
import { startWorker, type RunningWorker } from "../src/start-worker.js";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";

describe("worker probe consumer against simnet", () => {
  let db: TestDatabase;
  let sim: Simnet;
  let redis: Redis;
  let worker: RunningWorker | undefined;
  const prefix = uniquePrefix();
  const ids = new Map<string, string>();

  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    sim = await startSimnet({
      seed: "worker-probe",
      nodes: [
        { name: "eth-ok", family: "ethereum", network: "ethereum-mainnet", port: 0, latency: { kind: "fixed", ms: 5 } },
        {
          name: "eth-down",
          family: "ethereum",
          network: "ethereum-mainnet",
          port: 0,
          errorRate: 1,
          errorKind: "connection-reset",
        },
      ],
    });
    const seeded = await seedDemoDirectory(
      { sql: db.pool },
      { nodes: sim.nodes.map((n) => ({ name: n.name, family: n.family, network: n.network, port: n.port })) },
    );
    for (const s of seeded) ids.set(s.name, s.id);
    // A public endpoint: never reached in PROBE_ONLY_PRIVATE mode (no DNS, no connection).
    await db.pool.query(
      `INSERT INTO public_endpoints (network_id, api_family, url, name) SELECT id, 'ethereum', 'https://eth.example.invalid', 'public' FROM networks WHERE slug = 'ethereum-mainnet'`,
    );
  });

  after(async () => {
    await worker?.stop("test end");
    await sim?.close();
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db?.drop();
  });

  it("probes on schedule, stores results, checks capabilities and ranks", async () => {
    const env = parseWorkerEnv({
      DATABASE_URL: db.url,
      REDIS_URL: SHARED_REDIS_URL,
      QUEUE_PREFIX: prefix,
      WORKER_ID: `probe-${prefix}`,
      WORKER_HEALTH_HOST: "127.0.0.1",
      WORKER_HEALTH_PORT: "0",
      WORKER_INGEST_ENABLED: "false",
      PROBE_ALLOW_PRIVATE: "true",
      PROBE_ONLY_PRIVATE: "true",
      PROBE_INTERVAL_MS: "1000",
      PROBE_JITTER: "0.2",
      PROBE_CAPABILITY_INTERVAL_MS: "600000",
      DIRECTORY_RANK_INTERVAL_MS: "1000",
      PROBE_REGION: "test-region",
      LOG_LEVEL: "warn",
    });
    worker = await startWorker(env, createLogger({ name: "worker", level: "warn" }));
    assert.ok(worker.queues.includes("probe"));

    const okId = ids.get("eth-ok") ?? "";
    const downId = ids.get("eth-down") ?? "";
    const counts = await waitFor(
      "three rounds of probe results",
      async () => {
        const { rows } = await db.pool.query<{ endpoint_id: string; n: number; ok: number }>(
          `SELECT endpoint_id, count(*)::int AS n, count(*) FILTER (WHERE ok)::int AS ok FROM probe_results GROUP BY endpoint_id`,
        );
        const ok = rows.find((r) => r.endpoint_id === okId);
        const down = rows.find((r) => r.endpoint_id === downId);
        return ok && down && ok.n >= 3 && down.n >= 3 ? rows : undefined;
      },
      30_000,
    );
    assert.equal(counts.length, 2, "the public endpoint is skipped in PROBE_ONLY_PRIVATE mode");
    assert.ok((counts.find((r) => r.endpoint_id === okId)?.ok ?? 0) >= 3);
    assert.equal(counts.find((r) => r.endpoint_id === downId)?.ok, 0);

    const { rows: vps } = await db.pool.query<{ name: string; region: string; kind: string }>(
      `SELECT name, region, kind::text FROM vantage_points`,
    );
    assert.deepEqual(vps, [{ name: "server:test-region", region: "test-region", kind: "server" }]);

    const caps = await waitFor(
      "a capability row",
      async () => {
        const { rows } = await db.pool.query<{ client_version: string | null; websocket: boolean | null }>(
          `SELECT client_version, websocket FROM endpoint_capabilities WHERE endpoint_id = $1`,
          [okId],
        );
        return rows[0];
      },
      30_000,
    );
    assert.ok(caps.client_version);

    const ranked = await waitFor(
      "a ranking snapshot with both endpoints",
      async () => {
        const { rows } = await db.pool.query<{ endpoint_id: string; rank: number }>(
          `SELECT endpoint_id, rank FROM endpoint_rankings WHERE network = 'ethereum-mainnet' AND "window" = '1h' AND region = 'all' ORDER BY rank`,
        );
        return rows.length === 3 ? rows : undefined;
      },
      30_000,
    );
    assert.equal(ranked[0]?.endpoint_id, okId);
  });
});
