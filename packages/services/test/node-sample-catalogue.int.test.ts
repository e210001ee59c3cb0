// Issue 15, one metric catalogue: every list of the ingest contract is the catalogue's, in its order
// (a list written by hand again fails the first test), and a metric added to a copy of the catalogue
// reaches every derived list, the normalised job, the COPY encoder and, after one migration adding
// its column, a row of node_samples (real PostgreSQL) without any other change: the job is parsed by
// the queue's parser built for the extended catalogue, and the row is written from the parsed job.
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { advisorMetricsOf, agentSampleToAdvisorSample } from "@rpcpulse/advisor";
import { defaultMigrationsDir, runMigrations } from "@rpcpulse/db/migrate";
import {
  encodeSamples,
  INGEST_SAMPLE_METRICS,
  INGEST_SAMPLE_PLAN,
  ingestSamplePlanOf,
  writeIngestFlush,
} from "@rpcpulse/db/ingest";
import { NODE_SAMPLE_METRICS, NodeSample, nodeSampleMetricShapeOf } from "@rpcpulse/db/fleet";
import { connectSqlSession, createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import {
  metricFieldsByKindOf,
  metricTuplesOf,
  NODE_SAMPLE_METRIC_CATALOGUE,
  type AgentSample,
  type NodeSampleMetric,
} from "@rpcpulse/domain";
import {
  createIngestPayloadParser,
  INGEST_BOOLEAN_METRICS,
  INGEST_NUMERIC_METRICS,
  IngestSampleColumns,
  parsePayload,
} from "@rpcpulse/queue";
import { normaliseAgentBatch, sampleMetricMappingOf } from "@rpcpulse/services/ingest";
import { createNode, wireBatch, wireSample } from "./advisor-fixtures.js";

const CATALOGUE = NODE_SAMPLE_METRIC_CATALOGUE;
const FIELDS = CATALOGUE.map((m) => m.field);

/** The catalogue plus one metric (context switches per sample, read from the host group). */
const NEW_METRIC = {
  field: "contextSwitches",
  column: "context_switches",
  kind: "int8",
  read: (s: AgentSample) => (s.host as { contextSwitches?: number } | null)?.contextSwitches ?? null,
} as const satisfies NodeSampleMetric;
const EXTENDED = [...CATALOGUE, NEW_METRIC] as const satisfies readonly NodeSampleMetric[];

function sample(at: number, contextSwitches: number | null): AgentSample {
  return wireSample(at, {
    host: {
      cpuPct: 12.5,
      load1: 0.75,
      memTotalBytes: 8e9,
      memAvailableBytes: 4e9,
      ...(contextSwitches === null ? {} : { contextSwitches }),
    } as AgentSample["host"],
    disks: [{ path: "/data", totalBytes: 1e12, freeBytes: 5e11, availableBytes: 4e11 }] as AgentSample["disks"],
    chain: { headBlock: 1_000 + (at % 7), headTime: new Date(at - 3_000).toISOString(), headAgeMs: 3_000.4 } as never,
  });
}

const batch = wireBatch;

describe("the node-sample metric catalogue", () => {
  test("every list of the ingest contract is the catalogue's, in its order", () => {
    const numeric = CATALOGUE.filter((m) => m.kind !== "bool").map((m) => m.field);
    const boolean = CATALOGUE.filter((m) => m.kind === "bool").map((m) => m.field);
    assert.deepEqual([...INGEST_NUMERIC_METRICS], numeric);
    assert.deepEqual([...INGEST_BOOLEAN_METRICS], boolean);
    assert.deepEqual(Object.keys(IngestSampleColumns.shape), ["time", ...numeric, ...boolean]);
    const tuples = CATALOGUE.map((m) => [m.field, m.column, m.kind]);
    assert.deepEqual(NODE_SAMPLE_METRICS, tuples);
    assert.deepEqual(INGEST_SAMPLE_METRICS, tuples);
    assert.deepEqual(INGEST_SAMPLE_PLAN.columns, [
      "time",
      "node_id",
      "batch_seq",
      "clock_skew_ms",
      "lag_blocks",
      ...CATALOGUE.map((m) => m.column),
    ]);
    assert.deepEqual(Object.keys(NodeSample.shape), [
      "time",
      "nodeId",
      ...FIELDS,
      "lagBlocks",
      "clockSkewMs",
      "batchSeq",
    ]);
    const s = sample(Date.parse("2026-11-28T12:00:00Z"), null);
    const normalised = normaliseAgentBatch(batch(1, [s]));
    assert.deepEqual(Object.keys(normalised.samples), ["time", ...FIELDS]);
    const data = s.disks[0];
    for (const m of CATALOGUE)
      assert.deepEqual(normalised.samples[m.field], [m.read(s, data, undefined)], `normalised ${m.field}`);
    const advised = agentSampleToAdvisorSample(s);
    assert.deepEqual(Object.keys(advised), ["time", ...FIELDS.filter((f) => f !== "headTime"), "lagBlocks"]);
  });

  test("catalogue fields and columns are unique and the kinds are the encoder's", () => {
    assert.equal(new Set(FIELDS).size, FIELDS.length);
    assert.equal(new Set(CATALOGUE.map((m) => m.column)).size, CATALOGUE.length);
    for (const m of CATALOGUE) assert.match(m.kind, /^(time|int8|int4|int2|float4|bool)$/, m.field);
  });

  describe("a metric added to a copy of the catalogue", () => {
    let db: TestDatabase;
    let migrations: string;
    const ORG = "org-metric-catalogue";
    before(async () => {
      db = await createTestDatabase();
      await createTestOrg(db, { id: ORG });
      // The one migration the new metric needs, beside the real ones (already applied to the test database).
      migrations = mkdtempSync(join(tmpdir(), "rpcpulse-catalogue-"));
      cpSync(defaultMigrationsDir(), migrations, { recursive: true });
      mkdirSync(join(migrations, "9999_context_switches"));
      writeFileSync(
        join(migrations, "9999_context_switches", "migration.sql"),
        "ALTER TABLE node_samples ADD COLUMN context_switches BIGINT;\n",
      );
    });
    after(async () => {
      await db.drop();
      rmSync(migrations, { recursive: true, force: true });
    });

    test("every derived list carries it, with its column and kind, last", () => {
      assert.deepEqual(metricFieldsByKindOf(EXTENDED).numeric, [...INGEST_NUMERIC_METRICS, "contextSwitches"]);
      assert.deepEqual(metricFieldsByKindOf(EXTENDED).boolean, [...INGEST_BOOLEAN_METRICS]);
      assert.deepEqual(metricTuplesOf(EXTENDED), [
        ...NODE_SAMPLE_METRICS,
        ["contextSwitches", "context_switches", "int8"],
      ]);
      const plan = ingestSamplePlanOf(metricTuplesOf(EXTENDED));
      assert.deepEqual(plan.columns, [...INGEST_SAMPLE_PLAN.columns, "context_switches"]);
      assert.equal(plan.columnList, `${INGEST_SAMPLE_PLAN.columnList}, context_switches`);
      assert.deepEqual(Object.keys(nodeSampleMetricShapeOf(EXTENDED)), [...FIELDS, "contextSwitches"]);
      assert.equal(nodeSampleMetricShapeOf(EXTENDED).contextSwitches!.safeParse(-1).success, false);
      assert.deepEqual(
        advisorMetricsOf(EXTENDED).map((m) => m.field),
        [...FIELDS.filter((f) => f !== "headTime"), "contextSwitches"],
      );
    });

    test("the normaliser, the advisor, the COPY encoder and a migrated node_samples take it", async () => {
      const t0 = Date.now() - 60_000;
      const samples = [sample(t0, 41_000), sample(t0 + 10_000, null), sample(t0 + 20_000, 2 ** 40)];
      const wire = batch(7, samples);
      const normalised = normaliseAgentBatch(wire, sampleMetricMappingOf(EXTENDED));
      const columns = normalised.samples as unknown as Record<string, unknown[]>;
      assert.deepEqual(columns.contextSwitches, [41_000, null, 2 ** 40]);
      // Every other column is what the real catalogue's normaliser writes.
      const { contextSwitches: _new, ...rest } = columns;
      assert.deepEqual({ ...normalised, samples: rest }, normaliseAgentBatch(wire));
      const advised = agentSampleToAdvisorSample(samples[0]!, undefined, advisorMetricsOf(EXTENDED));
      assert.equal((advised as unknown as Record<string, unknown>).contextSwitches, 41_000);

      const nodeId = await createNode(db, ORG, "catalogue");
      const body = {
        organizationId: ORG,
        nodeId,
        networkId: "00000000-0000-4000-8000-000000000000",
        batchSeq: 7,
        receivedAtMs: Date.now(),
        clockSkewMs: 0,
        agentVersion: "0.1.0",
        ...normalised,
      };
      const job = createIngestPayloadParser(EXTENDED)(body);
      assert.deepEqual(job.samples.contextSwitches, [41_000, null, 2 ** 40]);
      // The real catalogue's job strips the column and is otherwise the same: the catalogue carries it.
      const realJob = parsePayload("ingest", body);
      assert.equal("contextSwitches" in realJob.samples, false);
      const { contextSwitches: _carried, ...realSamples } = job.samples;
      assert.deepStrictEqual({ ...job, samples: realSamples }, realJob);
      const flush = [{ ...job, lagBlocks: job.samples.time.map(() => null) }];
      const plan = ingestSamplePlanOf(metricTuplesOf(EXTENDED));
      // The encoder writes one more field per row: 4 bytes for a null, 12 for an int8.
      const before = encodeSamples(flush).payload.length;
      assert.equal(encodeSamples(flush, plan).payload.length, before + 12 + 4 + 12);

      const session = await connectSqlSession(db.url);
      try {
        const report = await runMigrations(session, { mode: "plain", dir: migrations });
        assert.deepEqual(report.applied, ["9999_context_switches"]);
      } finally {
        await session.end();
      }
      const first = await writeIngestFlush(db.pool, flush, plan);
      assert.deepEqual(first, { samplesInserted: 3, remoteIpsInserted: 0, path: "copy" });
      // A replay goes through the INSERT ... SELECT of the staged rows (same column list).
      await db.sql.query("DELETE FROM node_samples WHERE node_id = $1 AND time = $2", [nodeId, new Date(t0 + 20_000)]);
      const replay = await writeIngestFlush(db.pool, flush, plan);
      assert.deepEqual(replay, { samplesInserted: 1, remoteIpsInserted: 0, path: "upsert" });
      const { rows } = await db.sql.query(
        "SELECT context_switches::text AS v, head_age_ms::text AS age FROM node_samples WHERE node_id = $1 ORDER BY time",
        [nodeId],
      );
      assert.deepEqual(rows, [
        { v: "41000", age: "3000" },
        { v: null, age: "3000" },
        { v: String(2 ** 40), age: "3000" },
      ]);
    });
  });
});
