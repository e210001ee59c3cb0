// A host clock behind the chain: the agent's negative, flagged headAgeMs travels wire → ingest
// normalisation → queue payload → worker flush → node_samples unclamped, and the advisor's clock-skew
// rule explains it from the stored window; its verification series reads the same offset (real PostgreSQL).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { evaluateNode } from "@rpcpulse/advisor";
import { getAdvisorMetricSeries, loadAdvisorWindow } from "@rpcpulse/db/advisor";
import { writeIngestFlush } from "@rpcpulse/db/ingest";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { agentBatchSchema, type AgentSample } from "@rpcpulse/domain";
import { parsePayload } from "@rpcpulse/queue";
import { normaliseAgentBatch } from "@rpcpulse/services/ingest";
import { createNode } from "./advisor-fixtures.js";

const ORG = "org-head-age-skew";
const BEHIND_MS = 9_000;

function sample(at: number): AgentSample {
  const headTime = at + BEHIND_MS - 300; // a block 300 ms old, timestamped 9 s in this host's future
  return {
    collectedAt: new Date(at).toISOString(),
    tcp: null,
    sockstat: null,
    netstat: null,
    conntrack: null,
    fds: null,
    host: null,
    disks: [],
    settings: null,
    chain: {
      family: "hive",
      ok: true,
      headBlock: 90_000_000 + Math.round(at / 3000),
      headHash: null,
      headTime: new Date(headTime).toISOString(),
      headTimeSource: "block",
      headAgeMs: at - headTime,
      headAgeSkewed: true,
      finalizedBlock: null,
      peers: null,
      syncing: null,
      clientVersion: "1.27.11",
      latency: null,
      error: null,
    },
    remoteIps: null,
    outbound: null,
    self: null,
    errors: [],
  };
}

describe("negative head age: stored as measured, explained by the advisor", () => {
  let db: TestDatabase;
  let nodeId: string;
  const t0 = Date.now() - 120_000;
  before(async () => {
    db = await createTestDatabase();
    await createTestOrg(db, { id: ORG });
    nodeId = await createNode(db, ORG, "clock-behind");
  });
  after(async () => {
    await db?.drop();
  });

  test("wire → normalise → payload → node_samples keeps the negative head age and the batch's clock skew", async () => {
    const samples = Array.from({ length: 6 }, (_, i) => sample(t0 + i * 10_000));
    const batch = agentBatchSchema.parse({
      wireVersion: 1,
      agent: { version: "0.1.0", hostname: "h" },
      batchSeq: 1,
      sentAt: samples.at(-1)!.collectedAt,
      samples,
    });
    assert.equal(batch.samples[0]!.chain?.headAgeMs, -(BEHIND_MS - 300), "the wire accepts it");
    const normalised = normaliseAgentBatch(batch);
    assert.deepEqual(normalised.samples.headAgeMs, Array(6).fill(-(BEHIND_MS - 300)));
    const job = parsePayload("ingest", {
      organizationId: ORG,
      nodeId,
      networkId: "00000000-0000-4000-8000-000000000000",
      batchSeq: 1,
      receivedAtMs: t0 + 60_000,
      clockSkewMs: -BEHIND_MS,
      agentVersion: "0.1.0",
      ...normalised,
    });
    await writeIngestFlush(db.pool, [{ ...job, lagBlocks: job.samples.time.map(() => null) }]);
    const { rows } = await db.pool.query<{ head_age_ms: string; clock_skew_ms: number }>(
      "SELECT head_age_ms, clock_skew_ms FROM node_samples WHERE node_id = $1 ORDER BY time",
      [nodeId],
    );
    assert.equal(rows.length, 6);
    for (const r of rows) {
      assert.equal(Number(r.head_age_ms), -(BEHIND_MS - 300), "bigint column, negative as measured");
      assert.equal(r.clock_skew_ms, -BEHIND_MS);
    }
  });

  test("the advisor reads the stored window: clock-skew, verified on clock_skew_ms from the same rows", async () => {
    const window = await loadAdvisorWindow(db.pool, { nodeId, from: new Date(t0 - 1), to: new Date(t0 + 60_001) });
    const drafts = evaluateNode({
      node: {
        id: nodeId,
        family: "hive",
        chain: "hive",
        clientVersion: "1.27.11",
        publicPorts: [],
        blockIntervalMs: 3000,
      },
      window: { from: window.from, to: window.to, samples: window.samples, remoteIps: window.remoteIps },
      settings: null,
    });
    const d = drafts.find((x) => x.ruleId === "clock-skew");
    assert.ok(d, drafts.map((x) => x.ruleId).join(", "));
    assert.equal(d.title, "Host clock 9 s behind");
    assert.deepEqual(
      d.evidence.map((e) => e.metric),
      ["head_age_ms", "clock_skew_ms"],
    );
    assert.equal(drafts.filter((x) => x.ruleId === "stalled-head").length, 0);
    const series = await getAdvisorMetricSeries(db.pool, {
      nodeId,
      metric: "clock_skew_ms",
      from: new Date(t0 - 1),
      to: new Date(t0 + 60_001),
    });
    assert.equal(series.resolution, "raw");
    assert.deepEqual(
      series.points.map((p) => p.value),
      Array(6).fill(BEHIND_MS),
    );
  });
});
