// Reads on a REAL streaming replica: a private primary (initdb, wal_level=replica) and a replica
// (pg_basebackup -R, second postgres) started by this test. Writes go to the primary, reads come
// back from the replica; a replica whose replay is paused falls behind past the bound and reads
// fall back to the primary (health: degraded); a stopped replica does the same, per query at once.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadDatabase, type ReadDatabase } from "@rpcpulse/db/sql";
import {
  connectSqlSession,
  createTestDatabase,
  createTestOrg,
  type SqlSession,
  type TestDatabase,
  waitFor,
} from "@rpcpulse/db/testing";
import { getHealth, isHealthServing } from "@rpcpulse/services/platform";
import {
  hasPostgresBinaries,
  startReplicatedPostgres,
  type ReplicatedPostgres,
} from "./support/replicated-postgres.js";

/** Replication is asynchronous, and a read of a replica that is just restarting may fail: retried. */
const REPLICA_WAIT = { timeoutMs: 15_000, retryErrors: true };

describe("read replica (DATABASE_READ_URL) on a real streaming replica", { skip: !hasPostgresBinaries() }, () => {
  let cluster: ReplicatedPostgres;
  let db: TestDatabase;
  let reads: ReadDatabase;
  let replicaAdmin: SqlSession;
  const MAX_LAG_MS = 1_500;

  const answeredBy = async (): Promise<"replica" | "primary"> => {
    const { rows } = await reads.sql.query("SELECT pg_is_in_recovery() AS r");
    return (rows[0] as { r: boolean }).r ? "replica" : "primary";
  };
  const newOrganization = async (): Promise<string> => {
    return (await createTestOrg(db)).id;
  };
  const health = () =>
    getHealth({ sql: db.sql, prisma: db.prisma, pingRedis: async () => true, readReplica: reads.status });

  before(async () => {
    cluster = await startReplicatedPostgres();
    db = await createTestDatabase({ serverUrl: cluster.primaryUrl() });
    await cluster.startReplica();
    replicaAdmin = await connectSqlSession(cluster.replicaUrl());
    reads = createReadDatabase(
      { sql: db.sql, prisma: db.prisma },
      { url: cluster.replicaUrl(db.name), maxLagMs: MAX_LAG_MS, maxLagBytes: 512 * 1024, checkIntervalMs: 60_000 },
    );
  });

  after(async () => {
    await replicaAdmin?.end().catch(() => undefined);
    await reads?.close();
    await db?.drop().catch(() => undefined);
    await cluster?.destroy();
  });

  test("a healthy replica serves reads, sees the primary's writes, and health reports its lag", async () => {
    const status = await reads.refresh();
    assert.equal(status.serving, "replica", status.reason);
    assert.equal(await answeredBy(), "replica");
    const id = await newOrganization();
    const seen = await waitFor(
      "the write on the replica",
      async () => ((await reads.prisma.organization.findUnique({ where: { id } })) ? true : undefined),
      REPLICA_WAIT,
    );
    assert.equal(seen, true);
    const report = await health();
    assert.equal(report.status, "ok");
    assert.equal(report.replica.serving, "replica");
    assert.equal(typeof report.replica.lagMs, "number");
    assert.ok((report.replica.lagBytes ?? Infinity) < 512 * 1024);
  });

  test("a replica that falls behind past the bound is set aside: reads go to the primary, health degraded", async () => {
    await replicaAdmin.query("SELECT pg_wal_replay_pause()");
    const id = await newOrganization();
    // WAL past the byte bound and time past the lag bound, with replay paused.
    await db.pool.query(
      "CREATE TABLE wal_filler AS SELECT g, repeat('x', 200) AS pad FROM generate_series(1, 20000) g",
    );
    await new Promise((r) => setTimeout(r, MAX_LAG_MS + 300));
    const lagging = await reads.refresh();
    assert.equal(lagging.serving, "primary");
    assert.ok((lagging.lagMs ?? 0) > MAX_LAG_MS, `lag ${lagging.lagMs} ms`);
    assert.ok((lagging.lagBytes ?? 0) > 512 * 1024, `lag ${lagging.lagBytes} bytes`);
    assert.match(lagging.reason ?? "", /past DATABASE_READ_MAX_LAG/);
    // The replica really lacks the row; the read side answers from the primary, which has it.
    const onReplica = await replicaAdmin.query("SELECT 1 FROM pg_database WHERE datname = $1", [db.name]);
    assert.equal(onReplica.rowCount, 1);
    assert.equal(await answeredBy(), "primary");
    assert.ok(await reads.prisma.organization.findUnique({ where: { id } }));
    const report = await health();
    assert.equal(report.status, "degraded");
    assert.equal(isHealthServing(report), true);
    assert.equal(report.replica.serving, "primary");

    await replicaAdmin.query("SELECT pg_wal_replay_resume()");
    const back = await waitFor(
      "the replica to catch up",
      async () => {
        const s = await reads.refresh();
        return s.serving === "replica" ? s : undefined;
      },
      REPLICA_WAIT,
    );
    assert.equal(back.lagBytes, 0);
    assert.equal(await answeredBy(), "replica");
    assert.ok(await reads.prisma.organization.findUnique({ where: { id } }));
  });

  test("a stopped replica: the next query is answered by the primary at once, health degraded", async () => {
    assert.equal(reads.status().serving, "replica");
    const id = await newOrganization();
    await waitFor(
      "the write on the replica",
      async () => ((await reads.prisma.organization.findUnique({ where: { id } })) ? true : undefined),
      REPLICA_WAIT,
    );
    await replicaAdmin.end().catch(() => undefined);
    await cluster.stopReplica();
    // No check in between: the failing query itself sets the replica aside and is answered by the primary.
    assert.equal(reads.status().serving, "replica");
    assert.equal(await answeredBy(), "primary");
    assert.equal(reads.status().serving, "primary");
    assert.match(reads.status().reason ?? "", /replica unavailable/);
    assert.ok(await reads.prisma.organization.findUnique({ where: { id } }));
    const checked = await reads.refresh();
    assert.equal(checked.serving, "primary");
    assert.equal(checked.lagMs, null);
    const report = await health();
    assert.equal(report.status, "degraded");
    assert.equal(report.database.ok, true);
  });
});
