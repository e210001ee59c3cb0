// Producers end to end inside the real worker: the recurring "producers" probe task reads a
// registered Hive witness from simnet (through the SSRF-safe client, PROBE_ALLOW_PRIVATE) into
// producer_latest / producer_samples; a miss made in simnet is recorded with its block range and its
// exact block (the producer_missed virtual operation), and the witness_missed_block rule delivers a
// webhook naming that block. TimescaleDB mode (PGlite, one session, cannot back the worker's Prisma)
// runs the same service the task calls against the same simnet.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createLogger } from "@rpcpulse/config";
import { findNetwork } from "@rpcpulse/domain";
import { insertProducer } from "@rpcpulse/db/producers";
import {
  createTestDatabase,
  createTestOrg,
  createTimescaleTestDatabase,
  type TestDatabase,
  waitFor,
} from "@rpcpulse/db/testing";
import { startHttpReceiver } from "@rpcpulse/notify/testing";
import { createSafeHttpClient } from "@rpcpulse/prober";
import { closeQueues, createRedisConnection, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { createAlertChannel, createAlertRule, deriveSecretsKey } from "@rpcpulse/services/alerting";
import { pollWitnesses, registerProducer } from "@rpcpulse/services/producers";
import { seedDemoDirectory } from "@rpcpulse/services/directory";
import { type ServiceContext } from "@rpcpulse/services/context";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { parseWorkerEnv } from "../src/env.js";
import { startWorker, type RunningWorker } from "../src/start-worker.js";

const ORG = "org-producers";
const SECRETS = "producers-test-secrets-key-0123456789abcdef";

describe("producers: witnesses read by the worker from simnet", () => {
  let db: TestDatabase;
  let sim: Simnet;
  let redis: Redis;
  let worker: RunningWorker | undefined;
  let hook: Awaited<ReturnType<typeof startHttpReceiver>>;
  const prefix = uniquePrefix();
  // The chain moves only when the test says so: a miss lands on the witness's next slot, 21 blocks away at most.
  const clock = new ManualClock(Date.now());

  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    hook = await startHttpReceiver(() => 200);
    sim = await startSimnet(
      { seed: "worker-producers", nodes: [{ name: "hive-a", family: "hive", network: "hive", port: 0 }] },
      { clock },
    );
    await seedDemoDirectory(
      { sql: db.pool },
      { nodes: sim.nodes.map((n) => ({ name: n.name, family: n.family, network: n.network, port: n.port })) },
    );
  });

  after(async () => {
    await worker?.stop("test end");
    await sim?.close();
    await hook?.close();
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db?.drop();
  });

  it("reads the witness, records a miss with its block and delivers the alert", async () => {
    await createTestOrg(db, { id: ORG, name: "Producers" });
    const ctx: ServiceContext = { userId: "u-p", organizationId: ORG, organizationSlug: ORG, role: "owner" };
    const deps = {
      prisma: db.prisma,
      sql: db.pool,
      queue: { connection: redis, prefix },
      secretsKey: deriveSecretsKey(SECRETS),
    };
    const gtg = await registerProducer({ sql: db.pool }, ctx, { network: "hive", account: "gtg" });
    await assert.rejects(
      registerProducer({ sql: db.pool }, ctx, { network: "ethereum-mainnet", account: "gtg" }),
      /Hive and Steem/,
    );
    const channel = await createAlertChannel(deps, ctx, { name: "hook", type: "webhook", url: `${hook.url}/witness` });
    await createAlertRule(deps, ctx, {
      name: "Witness missed a block",
      type: "witness_missed_block",
      target: "org",
      forSeconds: 120,
      channelIds: [channel.channel.id],
    });

    const env = parseWorkerEnv({
      DATABASE_URL: db.url,
      REDIS_URL: SHARED_REDIS_URL,
      QUEUE_PREFIX: prefix,
      WORKER_ID: `producers-${prefix}`,
      WORKER_HEALTH_HOST: "127.0.0.1",
      WORKER_HEALTH_PORT: "0",
      WORKER_INGEST_ENABLED: "false",
      WORKER_ADVISOR_ENABLED: "false",
      SECRETS_ENCRYPTION_KEY: SECRETS,
      PROBE_ALLOW_PRIVATE: "true",
      PROBE_ONLY_PRIVATE: "true",
      PROBE_INTERVAL_MS: "60000",
      PROBE_CAPABILITY_INTERVAL_MS: "600000",
      DIRECTORY_RANK_INTERVAL_MS: "600000",
      PRODUCER_INTERVAL_MS: "1000",
      ALERT_EVALUATE_INTERVAL_MS: "1000",
      NOTIFY_ALLOW_PRIVATE: "true",
      LOG_LEVEL: "warn",
    });
    worker = await startWorker(env, createLogger({ name: "worker", level: "warn" }));

    const first = await waitFor(
      "a first reading",
      async () => {
        const { rows } = await db.pool.query<{ total_missed: string; source: string; running_version: string }>(
          `SELECT total_missed, source, running_version FROM producer_latest WHERE producer_id = $1`,
          [gtg.id],
        );
        return rows[0];
      },
      30_000,
    );
    assert.equal(first.source, sim.node("hive-a").url);
    assert.equal(first.running_version, "1.27.11");

    const missed = sim.witnesses("hive").missNextSlot("gtg");
    clock.advance((missed - sim.node("hive-a").head() + 1) * 3_000);
    const miss = await waitFor(
      "the miss row",
      async () => {
        const { rows } = await db.pool.query<{
          from_block: string;
          to_block: string;
          total_missed: string;
          missed_blocks: string[] | null;
        }>(`SELECT from_block, to_block, total_missed, missed_blocks FROM producer_misses WHERE producer_id = $1`, [
          gtg.id,
        ]);
        return rows[0];
      },
      30_000,
    );
    assert.equal(Number(miss.total_missed), Number(first.total_missed) + 1);
    assert.ok(Number(miss.from_block) <= missed && missed <= Number(miss.to_block), `${missed} in the range`);
    // The producer_missed virtual operation named the exact block (simnet's account_history_api).
    assert.deepEqual(miss.missed_blocks?.map(Number), [missed]);

    const delivered = await waitFor(
      "the webhook",
      async () => hook.requests.find((r) => r.path === "/witness"),
      30_000,
    );
    const body = JSON.parse(delivered.body) as { title?: string; text?: string };
    assert.match(JSON.stringify(body), /@gtg \(hive\): 1 missed block/);
    assert.match(JSON.stringify(body), new RegExp(`block #${missed}, seen `));
  });
});

describe("producers: the same read in TimescaleDB mode (PGlite)", () => {
  it("stores the reading and the history in the hypertable", async () => {
    const ts = await createTimescaleTestDatabase();
    const clock = new ManualClock(Date.now());
    const sim = await startSimnet(
      { seed: "ts-producers", nodes: [{ name: "h", family: "hive", network: "hive", port: 0 }] },
      { clock },
    );
    try {
      const hive = findNetwork("hive")!;
      await ts.sql.query(
        `INSERT INTO chains (slug, name, api_families, finality, finality_note)
         VALUES ('hive', 'Hive', ARRAY['hive']::api_family[], 'irreversible', 'LIB')`,
      );
      await ts.sql.query(
        `INSERT INTO networks (slug, chain_slug, name, block_interval_ms) VALUES ('hive', 'hive', $1, $2)`,
        [hive.name, hive.blockIntervalMs],
      );
      await createTestOrg(ts, { id: "o1", name: "O" });
      await ts.sql.query(
        `INSERT INTO public_endpoints (network_id, api_family, url, name, status)
         SELECT id, 'hive', $1, 'sim', 'active' FROM networks WHERE slug = 'hive'`,
        [sim.node("h").url],
      );
      const p = await insertProducer(ts.sql, { organizationId: "o1", network: "hive", account: "arcange" });
      assert.ok(p);
      const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 5_000 });
      const r1 = await pollWitnesses({ sql: ts.sql }, { client });
      assert.deepEqual([r1.read, r1.failed, r1.misses], [1, 0, 0]);
      const missed = sim.witnesses("hive").missNextSlot("arcange");
      clock.advance((missed - sim.node("h").head() + 1) * 3_000);
      const r2 = await pollWitnesses({ sql: ts.sql }, { client });
      assert.equal(r2.misses, 1);
      const { rows } = await ts.sql.query(`SELECT count(*)::int AS n FROM producer_samples WHERE producer_id = $1`, [
        p.id,
      ]);
      assert.equal((rows[0] as { n: number }).n, 2);
    } finally {
      await sim.close();
      await ts.close();
    }
  });
});
