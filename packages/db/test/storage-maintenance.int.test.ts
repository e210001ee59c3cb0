import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getNodeSeries, insertNodeSamples } from "@rpcpulse/db/fleet";
import {
  refreshRollups,
  runStorageMaintenance,
  setStorageSettings,
  type StorageMaintenanceReport,
} from "@rpcpulse/db/platform";
import { createTestDatabase, type TestDatabase } from "../src/testing.js";
import { insertFixtureFleet, NODE_1, NODE_1_SAMPLES, NODE_2, WINDOW } from "./fixtures.js";

const relationsOf = (report: StorageMaintenanceReport, action: string) =>
  report.actions.filter((a) => a.action === action).map((a) => a.relation);

describe("plain mode storage maintenance", () => {
  let db: TestDatabase;
  const count = async (table: string) => Number((await db.pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  before(async () => {
    db = await createTestDatabase();
    await insertFixtureFleet(db.sql);
    await insertNodeSamples(db.sql, NODE_1_SAMPLES);
    await refreshRollups(db.sql, WINDOW);
  });
  after(() => db.drop());

  test("creates partitions around `now` and drains matching rows out of the default partition", async () => {
    assert.equal(await count("node_samples_default"), 5);
    const report = await runStorageMaintenance(db.sql, new Date("2026-01-05T12:00:00Z"));
    assert.equal(report.mode, "plain");
    const created = relationsOf(report, "create_partition");
    for (const name of [
      "node_samples_p20260104",
      "node_samples_p20260105",
      "node_samples_p20260108",
      "node_remote_ips_p20260105",
      "probe_results_p20260105",
      "node_samples_1m_p20260105",
      "node_samples_1h_p20251229",
    ]) {
      assert.ok(created.includes(name), `${name} created (got ${created.join(", ")})`);
    }
    assert.ok(!created.includes("node_samples_p20260109"), "raw partitions are prepared 3 days ahead");
    assert.equal(await count("node_samples_default"), 0);
    assert.equal(await count("node_samples_p20260105"), 5);
    assert.equal(await count("node_samples_1m_default"), 0);
    assert.equal(await count("node_samples_1m_p20260105"), 2);
    const again = await runStorageMaintenance(db.sql, new Date("2026-01-05T12:00:00Z"));
    assert.deepEqual(again.actions, [], "idempotent");
  });

  test("drops partitions past retention, deletes expired default rows, keeps rollups longer", async () => {
    // A late row outside every partition lands in the default partition.
    await insertNodeSamples(db.sql, [{ time: new Date("2025-12-20T00:00:00Z"), nodeId: NODE_1, tcpEstablished: 1 }]);
    assert.equal(await count("node_samples_default"), 1);
    const report = await runStorageMaintenance(db.sql, new Date("2026-02-10T00:00:00Z"));
    const dropped = relationsOf(report, "drop_partition");
    // raw retention 30 days: cutoff 2026-01-11, so every raw day partition made above goes.
    for (const day of ["04", "05", "06", "07", "08"]) assert.ok(dropped.includes(`node_samples_p202601${day}`), day);
    assert.ok(!dropped.some((r) => r.startsWith("node_samples_1m") || r.startsWith("node_samples_1h")));
    assert.deepEqual(relationsOf(report, "delete_expired"), ["node_samples_default"]);
    assert.ok(relationsOf(report, "create_partition").includes("node_samples_p20260210"));
    assert.equal(await count("node_samples"), 0);
    const raw = await getNodeSeries(db.sql, { nodeId: NODE_1, ...WINDOW, resolution: "raw" });
    const m1 = await getNodeSeries(db.sql, { nodeId: NODE_1, ...WINDOW, resolution: "1m" });
    assert.equal(raw.points.length, 0);
    assert.deepEqual(
      m1.points.map((p) => p.samples),
      [3, 2],
    );
  });

  test("retention settings drive the drops; node_latest rows of deleted nodes are removed", async () => {
    await setStorageSettings(db.sql, { rollup1mRetentionDays: 30 });
    await db.prisma.node.delete({ where: { id: NODE_2 } });
    await db.pool.query("INSERT INTO node_latest (node_id, time) VALUES ($1, now())", [NODE_2]);
    // 1m retention 30 days at 2026-02-15: cutoff 2026-01-16, the week 2026-01-05..12 goes.
    const report = await runStorageMaintenance(db.sql, new Date("2026-02-15T00:00:00Z"));
    assert.ok(relationsOf(report, "drop_partition").includes("node_samples_1m_p20260105"));
    const m1 = await getNodeSeries(db.sql, { nodeId: NODE_1, ...WINDOW, resolution: "1m" });
    assert.equal(m1.points.length, 0);
    assert.deepEqual(relationsOf(report, "delete_orphans"), ["node_latest"]);
    assert.equal(await count("node_latest"), 1);
    await assert.rejects(setStorageSettings(db.sql, { rawRetentionDays: 60 }), /raw <= 1-minute/);
  });
});
