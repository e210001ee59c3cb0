// Validators end to end inside the real worker (plain PostgreSQL): the recurring "producers" task reads
// two registered Polkadot stashes through simnet's sidecar (listed in the directory); simnet's control
// knobs make one go offline (an imOnline.SomeOffline at the session end, then era points far below the
// set's median) and drop the other out of the active set at the next era; each of the three validator
// rules delivers its webhook. TimescaleDB mode (PGlite, one session, cannot back the worker's Prisma)
// runs the same service the task calls against the same simnet, with the organization's own substrate
// node answering author_hasSessionKeys.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createLogger } from "@rpcpulse/config";
import { findNetwork } from "@rpcpulse/domain";
import { insertProducer } from "@rpcpulse/db/producers";
import {
  createTestDatabase,
  createTestNode,
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
import { pollValidators, registerProducer } from "@rpcpulse/services/producers";
import { seedDemoDirectory } from "@rpcpulse/services/directory";
import { type ServiceContext } from "@rpcpulse/services/context";
import { ERA_BLOCKS, ManualClock, SESSION_BLOCKS, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { parseWorkerEnv } from "../src/env.js";
import { startWorker, type RunningWorker } from "../src/start-worker.js";

const ORG = "org-validators";
const SECRETS = "validators-test-secrets-key-0123456789abcdef";
const BLOCK_MS = 6_000;

/** Move the manual clock so the finalized head (2-3 behind the best) reaches at least `height`. */
function advanceTo(clock: ManualClock, sim: Simnet, node: string, height: number): void {
  const head = sim.node(node).head();
  if (height + 3 > head) clock.advance((height + 3 - head) * BLOCK_MS);
}

describe("validators: read by the worker from simnet's sidecar", () => {
  let db: TestDatabase;
  let sim: Simnet;
  let redis: Redis;
  let worker: RunningWorker | undefined;
  let hook: Awaited<ReturnType<typeof startHttpReceiver>>;
  const prefix = uniquePrefix();
  const clock = new ManualClock(Date.now());

  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    hook = await startHttpReceiver(() => 200);
    sim = await startSimnet(
      { seed: "worker-validators", nodes: [{ name: "dot-sidecar", family: "sidecar", network: "polkadot", port: 0 }] },
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

  it("records offline reports, low era points and leaving the set, and delivers each alert", async () => {
    await createTestOrg(db, { id: ORG, name: "Validators" });
    const ctx: ServiceContext = { userId: "u-v", organizationId: ORG, organizationSlug: ORG, role: "owner" };
    const deps = {
      prisma: db.prisma,
      sql: db.pool,
      queue: { connection: redis, prefix },
      secretsKey: deriveSecretsKey(SECRETS),
    };
    const book = sim.validators("polkadot");
    const offlineStash = book.address(3);
    const droppedStash = book.address(4);
    const a = await registerProducer({ sql: db.pool }, ctx, { network: "polkadot", account: offlineStash });
    const b = await registerProducer({ sql: db.pool }, ctx, { network: "polkadot", account: droppedStash });
    // A Kusama address (prefix 2) is refused on Polkadot; a typo breaks the checksum.
    const kusamaStyle = sim.validators("polkadot").address(5).replace(/^1/, "C");
    await assert.rejects(
      registerProducer({ sql: db.pool }, ctx, { network: "polkadot", account: kusamaStyle }),
      /SS58/,
    );
    await assert.rejects(
      registerProducer({ sql: db.pool }, ctx, { network: "kusama", account: offlineStash }),
      /prefix 0, not kusama/,
    );
    const channel = await createAlertChannel(deps, ctx, { name: "hook", type: "webhook", url: `${hook.url}/v` });
    for (const type of ["validator_offline_report", "validator_low_era_points", "validator_left_active_set"]) {
      await createAlertRule(deps, ctx, {
        name: type,
        type,
        target: "org",
        forSeconds: 0,
        channelIds: [channel.channel.id],
      });
    }

    // Start just after an era boundary, so the era's share can be stepped through.
    const head0 = sim.node("dot-sidecar").head();
    advanceTo(clock, sim, "dot-sidecar", (Math.floor(head0 / ERA_BLOCKS) + 1) * ERA_BLOCKS + 2);

    const env = parseWorkerEnv({
      DATABASE_URL: db.url,
      REDIS_URL: SHARED_REDIS_URL,
      QUEUE_PREFIX: prefix,
      WORKER_ID: `validators-${prefix}`,
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
        const { rows } = await db.pool.query<{
          status: string;
          source: string;
          commission_ppb: string;
          set_size: number;
        }>(`SELECT status, source, commission_ppb, set_size FROM validator_latest WHERE producer_id = $1`, [a.id]);
        return rows[0];
      },
      30_000,
    );
    assert.equal(first.source, sim.node("dot-sidecar").url);
    assert.equal(first.status, "active");
    assert.equal(first.set_size, 297);
    assert.equal(Number(first.commission_ppb), book.commissionPpb(offlineStash));

    const { reportAtBlock } = book.setOffline(offlineStash, book.network.head());
    const { fromBlock } = book.drop(droppedStash, book.network.head(), false);
    advanceTo(clock, sim, "dot-sidecar", reportAtBlock);
    const report = await waitFor(
      "the offline report",
      async () => {
        const { rows } = await db.pool.query<{ block: string }>(
          `SELECT block FROM validator_offline_reports WHERE producer_id = $1`,
          [a.id],
        );
        return rows[0];
      },
      30_000,
    );
    assert.equal(Number(report.block), reportAtBlock);
    const offlineHook = await waitFor(
      "the offline webhook",
      async () => hook.requests.find((r) => r.body.includes("reported offline")),
      30_000,
    );
    assert.match(offlineHook.body, new RegExp(`#${reportAtBlock}`));

    // Past a quarter of the era the offline validator's points are far below the median.
    advanceTo(clock, sim, "dot-sidecar", fromBlock - ERA_BLOCKS + Math.ceil(ERA_BLOCKS * 0.4));
    const low = await waitFor(
      "the low-points webhook",
      async () => hook.requests.find((r) => r.body.includes("below the set's median")),
      30_000,
    );
    assert.match(low.body, /era points \d+% below the set's median/);

    advanceTo(clock, sim, "dot-sidecar", fromBlock + SESSION_BLOCKS / 2);
    const left = await waitFor(
      "left the set",
      async () => {
        const { rows } = await db.pool.query<{ status: string; left_set_at: Date | null }>(
          `SELECT status, left_set_at FROM validator_latest WHERE producer_id = $1`,
          [b.id],
        );
        return rows[0]?.status === "waiting" ? rows[0] : undefined;
      },
      30_000,
    );
    assert.ok(left.left_set_at, "left_set_at recorded");
    const leftHook = await waitFor(
      "the left-the-set webhook",
      async () => hook.requests.find((r) => r.body.includes("not in the active set")),
      30_000,
    );
    assert.match(leftHook.body, /waiting, not elected/);
  });
});

describe("validators: the same read in TimescaleDB mode (PGlite)", () => {
  it("stores readings, offline reports, session-key checks and the history in the hypertable", async () => {
    const ts = await createTimescaleTestDatabase();
    const clock = new ManualClock(Date.now());
    const sim = await startSimnet(
      {
        seed: "ts-validators",
        nodes: [
          { name: "sc", family: "sidecar", network: "polkadot", port: 0 },
          { name: "rpc", family: "substrate", network: "polkadot", port: 0 },
        ],
      },
      { clock },
    );
    try {
      const dot = findNetwork("polkadot")!;
      await ts.sql.query(
        `INSERT INTO chains (slug, name, api_families, finality, finality_note)
         VALUES ('polkadot', 'Polkadot', ARRAY['substrate', 'sidecar']::api_family[], 'grandpa', 'GRANDPA')`,
      );
      await ts.sql.query(
        `INSERT INTO networks (slug, chain_slug, name, block_interval_ms) VALUES ('polkadot', 'polkadot', $1, $2)`,
        [dot.name, dot.blockIntervalMs],
      );
      await createTestOrg(ts, { id: "o1", name: "O" });
      await ts.sql.query(
        `INSERT INTO public_endpoints (network_id, api_family, url, name, status)
         SELECT id, 'sidecar', $1, 'sim', 'active' FROM networks WHERE slug = 'polkadot'`,
        [sim.node("sc").url],
      );
      // The organization's own validator node: asked author_hasSessionKeys with the on-chain keys.
      await createTestNode(ts, {
        organizationId: "o1",
        network: "polkadot",
        apiFamily: "substrate",
        clientName: "polkadot",
        name: "val-1",
        localRpcUrl: "http://127.0.0.1:9944",
        publicUrl: sim.node("rpc").url,
      });
      const book = sim.validators("polkadot");
      const stash = book.address(7);
      const p = await insertProducer(ts.sql, {
        organizationId: "o1",
        network: "polkadot",
        kind: "validator",
        account: stash,
      });
      assert.ok(p);
      book.setUnclaimedEras(stash, 2);
      const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 5_000 });
      const r1 = await pollValidators({ sql: ts.sql }, { client });
      assert.deepEqual([r1.read, r1.failed, r1.offlineReports], [1, 0, 0]);
      const latest = async () =>
        (
          await ts.sql.query(
            `SELECT status, keys_on_node, keys_node, pending_payout_eras, era_points, median_points FROM validator_latest WHERE producer_id = $1`,
            [p.id],
          )
        ).rows[0] as {
          status: string;
          keys_on_node: boolean | null;
          keys_node: string | null;
          pending_payout_eras: number[];
          era_points: number;
          median_points: number;
        };
      const l1 = await latest();
      assert.equal(l1.status, "active");
      assert.equal(l1.keys_on_node, true);
      assert.equal(l1.keys_node, "val-1");
      assert.equal(l1.pending_payout_eras.length, 2);

      const { reportAtBlock } = book.setOffline(stash, book.network.head());
      book.setKeysOnNode(stash, false);
      clock.advance((reportAtBlock + 3 - sim.node("sc").head()) * BLOCK_MS);
      const r2 = await pollValidators({ sql: ts.sql }, { client });
      assert.equal(r2.offlineReports, 1);
      const l2 = await latest();
      assert.equal(l2.keys_on_node, false);
      const { rows } = await ts.sql.query(`SELECT count(*)::int AS n FROM validator_samples WHERE producer_id = $1`, [
        p.id,
      ]);
      assert.equal((rows[0] as { n: number }).n, 2);
    } finally {
      await sim.close();
      await ts.close();
    }
  });
});
