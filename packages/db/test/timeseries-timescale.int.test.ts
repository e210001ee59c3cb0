import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { z } from "zod";
import { getStorageMode } from "@rpcpulse/db/migrate";
import { getStorageSettings, runStorageMaintenance, setStorageSettings } from "@rpcpulse/db/platform";
import { createTestDatabase, createTimescaleTestDatabase, type TimescaleTestDatabase } from "../src/testing.js";
import { rounded } from "./fixtures.js";
import { runScenario, type ScenarioResult } from "./scenario.js";

const ROLLUPS = ["node_samples_1m", "node_samples_1h", "probe_results_1m", "probe_results_1h"];

describe("time series, TimescaleDB mode (PGlite)", () => {
  let ts: TimescaleTestDatabase;
  let timescale: ScenarioResult;
  let plain: ScenarioResult;
  let plainColumns: string[];
  before(async () => {
    ts = await createTimescaleTestDatabase();
    timescale = await runScenario(ts.sql);
    const db = await createTestDatabase();
    try {
      plain = await runScenario(db.sql);
      plainColumns = await rollupColumns(db.sql);
    } finally {
      await db.drop();
    }
  });
  after(() => ts.close());

  const rows = async (text: string) => (await ts.sql.query(text)).rows;

  test("mode is recorded as timescale", async () => {
    assert.equal(await getStorageMode(ts.sql), "timescale");
  });

  test("time-series tables are hypertables; the raw telemetry and probe tables are compressed", async () => {
    const hypertables = z
      .array(z.object({ hypertable_name: z.string(), compression_enabled: z.boolean() }))
      .parse(
        await rows(
          "SELECT hypertable_name, compression_enabled FROM timescaledb_information.hypertables WHERE hypertable_schema = 'public' ORDER BY 1",
        ),
      );
    assert.deepEqual(hypertables, [
      // Consensus-client readings beside Ethereum nodes (0021): small rows, uncompressed.
      { hypertable_name: "beacon_samples", compression_enabled: false },
      { hypertable_name: "node_remote_ips", compression_enabled: true },
      { hypertable_name: "node_samples", compression_enabled: true },
      // Ranking rollups are rewritten while their buckets are open (0019); producer readings are small (0017).
      // ...and their daily sums (0022).
      { hypertable_name: "probe_rank_1d", compression_enabled: false },
      { hypertable_name: "probe_rank_1h", compression_enabled: false },
      { hypertable_name: "probe_rank_5m", compression_enabled: false },
      { hypertable_name: "probe_results", compression_enabled: true },
      { hypertable_name: "producer_samples", compression_enabled: false },
      // Validator era points against the median (0020), small like the producer readings.
      { hypertable_name: "validator_samples", compression_enabled: false },
    ]);
  });

  test("rollups are continuous aggregates (1h built on 1m)", async () => {
    const caggs = z
      .array(z.object({ view_name: z.string(), hypertable_name: z.string() }))
      .parse(
        await rows("SELECT view_name, hypertable_name FROM timescaledb_information.continuous_aggregates ORDER BY 1"),
      );
    assert.deepEqual(
      caggs.map((c) => c.view_name),
      ROLLUPS.slice().sort(),
    );
    assert.equal(
      caggs.find((c) => c.view_name === "node_samples_1h")?.hypertable_name.startsWith("_materialized_hypertable"),
      true,
    );
  });

  test("policies: compression 7d, retention 30d / 180d / 2y, refresh for every rollup", async () => {
    const jobs = z
      .array(z.object({ proc_name: z.string(), relation: z.string(), config: z.record(z.string(), z.unknown()) }))
      .parse(
        await rows(`SELECT j.proc_name, coalesce(c.view_name, j.hypertable_name) AS relation, j.config
                    FROM timescaledb_information.jobs j
                    LEFT JOIN timescaledb_information.continuous_aggregates c ON c.materialization_hypertable_name = j.hypertable_name
                    WHERE j.proc_name IN ('policy_compression', 'policy_retention', 'policy_refresh_continuous_aggregate')
                    ORDER BY 1, 2`),
      );
    const by = (proc: string) =>
      Object.fromEntries(jobs.filter((j) => j.proc_name === proc).map((j) => [j.relation, j.config]));
    const compression = by("policy_compression");
    assert.deepEqual(Object.keys(compression).sort(), ["node_remote_ips", "node_samples", "probe_results"]);
    assert.equal(compression.node_samples?.compress_after, "7 days");
    const retention = by("policy_retention");
    assert.equal(retention.node_samples?.drop_after, "30 days");
    assert.equal(retention.node_samples_1m?.drop_after, "180 days");
    assert.equal(retention.node_samples_1h?.drop_after, "730 days");
    // Producer readings (0024): a year of witness history and a month to compare (plain mode: the maintenance job).
    assert.equal(retention.producer_samples?.drop_after, "400 days");
    assert.deepEqual(Object.keys(by("policy_refresh_continuous_aggregate")).sort(), ROLLUPS.slice().sort());
  });

  test("the same query functions give the same results as plain mode", () => {
    assert.deepEqual(rounded(timescale), rounded(plain));
    assert.equal(timescale.series.m1.points[0]?.establishedAvg, 20);
    assert.equal(timescale.probes.all1m.points[0]?.totalMsP95, 292.5);
  });

  test("rollup columns have the same names and types in both modes", async () => {
    assert.deepEqual(await rollupColumns(ts.sql), plainColumns);
  });

  test("setStorageSettings re-creates the policies; maintenance is a policy report", async () => {
    const next = await setStorageSettings(ts.sql, { rawRetentionDays: 14, compressAfterDays: 2 });
    assert.equal(next.rawRetentionDays, 14);
    assert.deepEqual(await getStorageSettings(ts.sql), {
      rawRetentionDays: 14,
      rollup1mRetentionDays: 180,
      rollup1hRetentionDays: 730,
      compressAfterDays: 2,
    });
    const config = z
      .array(z.object({ drop_after: z.string() }))
      .parse(
        await rows(
          "SELECT config->>'drop_after' AS drop_after FROM timescaledb_information.jobs WHERE proc_name = 'policy_retention' AND hypertable_name = 'node_samples'",
        ),
      );
    assert.deepEqual(config, [{ drop_after: "14 days" }]);
    await assert.rejects(setStorageSettings(ts.sql, { rollup1mRetentionDays: 7 }), /raw <= 1-minute/);
    const report = await runStorageMaintenance(ts.sql, new Date("2026-02-01T00:00:00Z"));
    assert.deepEqual(
      report.actions.map((a) => a.action),
      ["policies"],
    );
  });
});

async function rollupColumns(sql: {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}): Promise<string[]> {
  const { rows } = await sql.query(
    `SELECT c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) AS col
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relname = ANY($1::text[]) AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`,
    [ROLLUPS],
  );
  return rows.map((r) => z.object({ col: z.string() }).parse(r).col);
}
