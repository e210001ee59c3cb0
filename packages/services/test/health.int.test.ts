import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { createRedisConnection, pingRedis } from "@rpcpulse/queue";
import type { Redis } from "ioredis";
import { getHealth, HealthReport } from "@rpcpulse/services/platform";

describe("getHealth", () => {
  let db: TestDatabase;
  let redis: Redis;
  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection("redis://127.0.0.1:6379", {
      role: "producer",
      connectionName: "services-health-test",
    });
    await new Promise<void>((resolve) => redis.once("ready", () => resolve()));
  });
  after(async () => {
    redis.disconnect();
    await db.drop();
  });

  test("ok with a migrated database and Redis; lists worker heartbeats with their age", async () => {
    const now = new Date();
    await db.prisma.workerHeartbeat.create({
      data: {
        id: "w-1",
        role: "ingest",
        hostname: "host-a",
        pid: 123,
        version: "0.1.0",
        startedAt: new Date(now.getTime() - 60_000),
        lastSeenAt: new Date(now.getTime() - 5_000),
        queues: ["ingest"],
      },
    });
    const report = await getHealth({
      sql: db.sql,
      prisma: db.prisma,
      pingRedis: () => pingRedis(redis),
      now: () => now,
    });
    HealthReport.parse(report);
    assert.equal(report.status, "ok");
    assert.deepEqual({ ok: report.database.ok, mode: report.database.mode }, { ok: true, mode: "plain" });
    assert.equal(report.redis.ok, true);
    assert.deepEqual(report.workers, [
      {
        id: "w-1",
        role: "ingest",
        lastSeenAt: new Date(now.getTime() - 5_000).toISOString(),
        ageSeconds: 5,
        version: "0.1.0",
      },
    ]);
  });

  test("degraded, in bounded time, when Redis hangs; never throws", async () => {
    const started = Date.now();
    const report = await getHealth({
      sql: db.sql,
      prisma: db.prisma,
      pingRedis: () => new Promise<boolean>(() => undefined),
      timeoutMs: 300,
    });
    assert.ok(Date.now() - started < 2_000, "answered within the deadline");
    assert.equal(report.status, "degraded");
    assert.equal(report.redis.ok, false);
    assert.match(report.redis.error ?? "", /timed out/);
    assert.equal(report.database.ok, true);
  });

  test("degraded when the database is not migrated (runs last: it removes the migration record)", async () => {
    await db.sql.query("DROP TABLE _rpcpulse_meta");
    const report = await getHealth({
      sql: db.sql,
      prisma: db.prisma,
      pingRedis: () => pingRedis(redis),
    });
    assert.equal(report.status, "degraded");
    assert.equal(report.database.ok, false);
    assert.equal(report.database.mode, null);
    assert.match(report.database.error ?? "", /not migrated/);
  });
});
