// Sweeps split into shards by organization, on a real database: every organization's nodes, rules
// and status pages fall in exactly one shard, and the shards' runs of the advisor sweep, alert
// evaluation and status-page uptime precompute together do what one unsharded run does, once.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { listNodesDueForAdvice } from "@rpcpulse/db/advisor";
import { listOrganizationIdsInShard } from "@rpcpulse/db/sql";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, listRecurringJobs, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { deriveSecretsKey, evaluateAlerts } from "@rpcpulse/services/alerting";
import { runAdvisorSweep } from "@rpcpulse/services/advisor";

const ORGS = 24;
const SHARDS = 3;

describe("organization shards of the sweeps", () => {
  let db: TestDatabase;
  let redis: Redis;
  const prefix = uniquePrefix();
  const nodesByOrg = new Map<string, string>();

  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    const now = Date.now();
    for (let i = 0; i < ORGS; i++) {
      const org = (await createTestOrg(db)).id;
      const node = await createTestNode(db, { organizationId: org, name: "n", lastSeenAt: new Date(now) });
      nodesByOrg.set(org, node.id);
      await insertNodeSamples(
        db.sql,
        Array.from({ length: 6 }, (_, k) => ({
          time: new Date(now - (6 - k) * 10_000),
          nodeId: node.id,
          tcpEstablished: 40,
          lagBlocks: 50,
          headAgeMs: 3_000,
        })),
      );
      await db.prisma.alertRule.create({
        data: { organizationId: org, name: "lag", type: "lag", targetKind: "org_nodes", params: { firing: 10 } },
      });
    }
  });
  after(async () => {
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  test("every organization is in exactly one shard, and no shard is empty", async () => {
    const all = await listOrganizationIdsInShard(db.sql, undefined);
    const seen = new Map<string, number>();
    for (let index = 0; index < SHARDS; index++) {
      const orgs = await listOrganizationIdsInShard(db.sql, { index, count: SHARDS });
      assert.ok(orgs.size > 0, `shard ${index} is empty`);
      for (const org of orgs) seen.set(org, (seen.get(org) ?? 0) + 1);
    }
    assert.equal(seen.size, all.size);
    assert.ok([...seen.values()].every((n) => n === 1));
  });

  test("the advisor's due nodes split by shard; the shards' sweeps evaluate every node once", async () => {
    const due = new Set((await listNodesDueForAdvice(db.sql, { limit: 1_000 })).map((n) => n.id));
    assert.equal(due.size, ORGS);
    const settings = { batchSize: 1_000, verifyBatchSize: 10, windowMinutes: 30, clearAfterMinutes: 30 };
    let evaluated = 0;
    for (let index = 0; index < SHARDS; index++) {
      const shard = { index, count: SHARDS };
      const orgs = await listOrganizationIdsInShard(db.sql, shard);
      const mine = await listNodesDueForAdvice(db.sql, { limit: 1_000, shard });
      assert.deepEqual(
        mine.map((n) => n.organizationId).sort(),
        [...orgs].sort(),
        "a shard lists exactly its organizations' nodes",
      );
      evaluated += (await runAdvisorSweep({ prisma: db.prisma, sql: db.sql }, { now: new Date(), shard }, settings))
        .evaluated;
    }
    assert.equal(evaluated, ORGS);
    assert.equal((await listNodesDueForAdvice(db.sql, { limit: 1_000 })).length, 0, "nothing left for a next run");
  });

  test("alert evaluation by shard covers every rule once", async () => {
    const deps = {
      prisma: db.prisma,
      sql: db.sql,
      queue: { connection: redis, prefix },
      secretsKey: deriveSecretsKey("sweep-shards-test-key-material-0123456789"),
    };
    let rules = 0;
    let targets = 0;
    for (let index = 0; index < SHARDS; index++) {
      const report = await evaluateAlerts(deps, { shard: { index, count: SHARDS } });
      assert.equal(report.errors, 0);
      rules += report.rules;
      targets += report.targets;
    }
    assert.equal(rules, ORGS);
    assert.equal(targets, ORGS);
    assert.equal(await db.prisma.alertState.count(), ORGS, "one state per (rule, node), none twice");
  });

  test("recurring jobs: one scheduler per shard for the three organization sweeps", () => {
    const jobs = listRecurringJobs({
      maintenanceEveryMs: 60_000,
      advisorEveryMs: 60_000,
      alertsEveryMs: 30_000,
      statusUptimeEveryMs: 600_000,
      sweepShards: SHARDS,
    });
    const ids = jobs.map((j) => j.id);
    for (const base of ["alerts-evaluate", "advisor-sweep", "maintenance-status-uptime"])
      for (let i = 0; i < SHARDS; i++) assert.ok(ids.includes(`${base}-shard-${i}-of-${SHARDS}`), `${base} ${i}`);
    assert.ok(ids.includes("maintenance-storage"));
    const shard1 = jobs.find((j) => j.id === "advisor-sweep-shard-1-of-3");
    assert.deepEqual(shard1?.payload, { task: "sweep", shard: { index: 1, count: 3 } });
    assert.deepEqual(
      listRecurringJobs({ maintenanceEveryMs: 60_000, alertsEveryMs: 30_000, sweepShards: 1 }).map((j) => j.id),
      ["maintenance-storage", "alerts-evaluate"],
    );
  });
});
