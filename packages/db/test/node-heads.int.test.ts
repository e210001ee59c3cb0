/**
 * Finality lag and public heads (issue 10): node heads, the finality state the finality_stalled
 * rule reads, public-URL checks and the hourly finality series give the same answers in plain
 * PostgreSQL and in TimescaleDB (PGlite) mode.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  getNodeSeries,
  insertNodeSamples,
  listNodeHeads,
  listOrganizationNodeHeads,
  listPublicHeadTargets,
  prunePublicHeadChecks,
  queryFinalityHourSeries,
  recordPublicHeadChecks,
  type PublicHeadCheck,
} from "@rpcpulse/db/fleet";
import { readNodeFinalityStates } from "@rpcpulse/db/alerting";
import { refreshRollups } from "@rpcpulse/db/platform";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  createTestDatabase,
  createTestNode,
  createTestOrg,
  createTimescaleTestDatabase,
  type TestDatabase,
  type TimescaleTestDatabase,
} from "../src/testing.js";

const ORG = "org-node-heads";
const NETWORK = "55555555-5555-4555-8555-555555555555";
const A = "55555555-5555-4555-8555-5555555555a1";
const B = "55555555-5555-4555-8555-5555555555b2";
const URL_A = "https://rpc.a.example/";
const NOW = new Date("2026-11-22T06:30:00Z");
const at = (secondsBefore: number) => new Date(NOW.getTime() - secondsBefore * 1000);

/**
 * Node A: a sample every 30 s over 10 minutes, head +10 per sample; its finalized block follows
 * 20 behind until sample 10 (06:25:00, finalized 1,080) and then stands still while the head moves
 * on to 1,200. Node B reports no finalized block at all.
 */
async function seed(sql: SqlClient): Promise<void> {
  await sql.query(`INSERT INTO chains (slug, name, api_families, finality, finality_note)
                   VALUES ('hive', 'Hive', '{hive}', 'irreversible', '') ON CONFLICT DO NOTHING`);
  await sql.query(
    `INSERT INTO networks (id, slug, chain_slug, name, block_interval_ms)
                   VALUES ($1, 'hive-heads', 'hive', 'Hive', 3000)`,
    [NETWORK],
  );
  await createTestOrg(sql, { id: ORG, name: "Org" });
  for (const [id, name, url] of [
    [A, "a", URL_A],
    [B, "b", null],
  ] as const) {
    await createTestNode(sql, { id, organizationId: ORG, networkId: NETWORK, name, publicUrl: url });
  }
  const samples = Array.from({ length: 21 }, (_, i) => i);
  await insertNodeSamples(sql, [
    ...samples.map((i) => ({
      time: at((20 - i) * 30),
      nodeId: A,
      headBlock: 1_000 + 10 * i,
      finalizedBlock: i <= 10 ? 980 + 10 * i : 1_080,
    })),
    ...samples.map((i) => ({ time: at((20 - i) * 30), nodeId: B, headBlock: 500 + i })),
  ]);
}

const check = (secondsBefore: number, fields: Partial<PublicHeadCheck>): PublicHeadCheck => ({
  nodeId: A,
  url: URL_A,
  checkedAt: at(secondsBefore),
  ok: true,
  latencyMs: 42.5,
  httpStatus: 200,
  errorClass: null,
  errorMessage: null,
  headBlock: null,
  headTime: null,
  finalizedBlock: null,
  nodeHeadBlock: 1_200,
  nodeSampleTime: at(0),
  ...fields,
});

async function readAll(sql: SqlClient) {
  const heads = await listNodeHeads(sql, [A, B]);
  const orgHeads = await listOrganizationNodeHeads(sql, ORG);
  const finality = await readNodeFinalityStates(sql, { nodeIds: [A, B], since: at(3_600) });
  const short = await readNodeFinalityStates(sql, { nodeIds: [A], since: at(200) });
  const targets = await listPublicHeadTargets(sql);
  const written = [
    await recordPublicHeadChecks(sql, [check(60, { headBlock: 1_190, headTime: at(62), finalizedBlock: 1_080 })]),
    await recordPublicHeadChecks(sql, [
      check(30, { ok: false, latencyMs: null, httpStatus: 502, errorClass: "http", errorMessage: "HTTP 502" }),
    ]),
    await recordPublicHeadChecks(sql, [check(0, { ok: false, latencyMs: null, errorClass: "timeout" })]),
    // Older than the stored check: ignored.
    await recordPublicHeadChecks(sql, [check(90, { headBlock: 1 })]),
  ];
  const afterChecks = await listNodeHeads(sql, [A]);
  await sql.query("UPDATE nodes SET public_url = 'https://other.example/' WHERE id = $1", [A]);
  const afterUrlChange = await listNodeHeads(sql, [A]);
  const pruned = await prunePublicHeadChecks(sql);
  await sql.query("UPDATE nodes SET public_url = $2 WHERE id = $1", [A, URL_A]);
  await refreshRollups(sql, { from: new Date("2026-11-22T06:00:00Z"), to: new Date("2026-11-22T07:00:00Z") });
  const hours = await queryFinalityHourSeries(sql, {
    nodeIds: [A, B],
    from: new Date("2026-11-22T05:00:00Z"),
    to: new Date("2026-11-22T07:00:00Z"),
  });
  const series = await getNodeSeries(sql, { nodeId: A, from: at(600), to: at(-1), resolution: "raw" });
  const series1h = await getNodeSeries(sql, {
    nodeId: A,
    from: new Date("2026-11-22T06:00:00Z"),
    to: new Date("2026-11-22T07:00:00Z"),
    resolution: "1h",
  });
  return {
    heads: heads.sort((x, y) => x.nodeId.localeCompare(y.nodeId)),
    orgHeads: orgHeads.length,
    finalityA: finality.get(A),
    finalityB: finality.get(B),
    short: short.get(A),
    targets,
    written,
    afterChecks: afterChecks[0]?.publicHead,
    afterUrlChange: afterUrlChange[0]?.publicHead,
    pruned,
    hours,
    finalityLags: series.points.map((p) => p.finalityLagBlocks),
    finalityLag1h: series1h.points.map((p) => p.finalityLagBlocks),
  };
}

describe("node heads, finality and public heads, plain and TimescaleDB modes", () => {
  let plain: TestDatabase;
  let ts: TimescaleTestDatabase;
  let plainResult: Awaited<ReturnType<typeof readAll>>;
  before(async () => {
    plain = await createTestDatabase();
    ts = await createTimescaleTestDatabase();
    await seed(plain.pool);
    await seed(ts.sql);
    plainResult = await readAll(plain.pool);
  });
  after(async () => {
    await plain?.drop();
    await ts?.close();
  });

  test("own head, finalized block and no public check yet", () => {
    const [a, b] = plainResult.heads;
    assert.deepEqual(
      [a?.nodeId, a?.headBlock, a?.finalizedBlock, a?.publicUrl, a?.publicHead, a?.blockIntervalMs],
      [A, 1_200, 1_080, URL_A, null, 3_000],
    );
    assert.deepEqual([b?.headBlock, b?.finalizedBlock, b?.publicUrl], [520, null, null]);
    assert.equal(plainResult.orgHeads, 2);
  });

  test("finality state: the finalized block stands since 06:25:00 while the head moved 1,100 → 1,200", () => {
    const f = plainResult.finalityA;
    assert.equal(f?.finalizedBlock, 1_080);
    assert.equal(f?.finalizedSince?.toISOString(), "2026-11-22T06:25:00.000Z");
    assert.equal(f?.headAtFinalizedSince, 1_100);
    assert.equal(f?.headBlock, 1_200);
    assert.equal(f?.sinceLookbackStart, false);
    assert.deepEqual([plainResult.finalityB?.finalizedBlock, plainResult.finalityB?.finalizedSince], [null, null]);
    // A lookback shorter than the stall starts at its first sample and says so.
    assert.equal(plainResult.short?.finalizedSince?.toISOString(), "2026-11-22T06:27:00.000Z");
    assert.equal(plainResult.short?.sinceLookbackStart, true);
  });

  test("public checks: targets, a failure keeps the last served head, stale checks and other URLs ignored", () => {
    assert.deepEqual(
      plainResult.targets.map((t) => [t.nodeId, t.url, t.family, t.network, t.nodeHeadBlock]),
      [[A, URL_A, "hive", "hive-heads", 1_200]],
    );
    assert.deepEqual(plainResult.written, [1, 1, 1, 0]);
    const p = plainResult.afterChecks;
    assert.equal(p?.ok, false);
    assert.equal(p?.errorClass, "timeout");
    assert.equal(p?.checkedAt.toISOString(), at(0).toISOString());
    assert.equal(p?.failingSince?.toISOString(), at(30).toISOString());
    assert.equal(p?.okAt?.toISOString(), at(60).toISOString());
    assert.deepEqual([p?.headBlock, p?.finalizedBlock, p?.nodeHeadBlock], [1_190, 1_080, 1_200]);
    assert.equal(plainResult.afterUrlChange, null);
    assert.equal(plainResult.pruned, 1);
  });

  test("finality lag in the node series (raw exact, 1 h rollup from the bucket maxima) and per hour", () => {
    assert.deepEqual(plainResult.finalityLags.slice(0, 3), [20, 20, 20]);
    assert.deepEqual(plainResult.finalityLags.slice(-2), [110, 120]);
    assert.deepEqual(plainResult.finalityLag1h, [120]);
    assert.deepEqual(
      plainResult.hours.map((h) => [h.nodeId, h.bucket.toISOString(), h.finalityLagBlocks]),
      [[A, "2026-11-22T06:00:00.000Z", 120]],
    );
  });

  test("TimescaleDB mode answers the same", async () => {
    assert.deepEqual(await readAll(ts.sql), plainResult);
  });
});
