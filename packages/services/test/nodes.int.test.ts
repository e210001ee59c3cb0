import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "@rpcpulse/config";
import { insertNodeSamples, insertRemoteIps } from "@rpcpulse/db/fleet";
import { refreshRollups } from "@rpcpulse/db/platform";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import {
  deleteNode,
  enrollNode,
  getFleetOverview,
  getNode,
  getNodeMetrics,
  listAgentTokens,
  updateNode,
} from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG_A = "org-nodes-a";
const ORG_B = "org-nodes-b";

function ctxOf(organizationId: string, role: ServiceContext["role"] = "owner"): ServiceContext {
  return { userId: `user-${organizationId}`, organizationId, organizationSlug: organizationId, role };
}

const hiveNode = {
  network: "hive",
  apiFamily: "hive",
  clientName: "hived",
  clientVersion: "1.27.11",
  name: "hive-1",
  localRpcUrl: "http://127.0.0.1:8091",
  region: "eu-west",
};

async function rejects(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (e: unknown) => isAppError(e) && e.code === code);
}

describe("node services", () => {
  let db: TestDatabase;
  let deps: { prisma: TestDatabase["prisma"]; sql: TestDatabase["pool"] };
  before(async () => {
    db = await createTestDatabase();
    deps = { prisma: db.prisma, sql: db.pool };
    for (const id of [ORG_A, ORG_B]) await createTestOrg(db, { id });
  });
  after(async () => {
    await db.drop();
  });

  test("enroll: catalogue network, family of its chain, unique name, admin only; token shown once", async () => {
    const a = ctxOf(ORG_A);
    const { node, issued } = await enrollNode(deps, a, hiveNode);
    assert.equal(node.networkSlug, "hive");
    assert.match(issued.token, /^rpa_[0-9a-f]{16}_/);
    const tokens = await listAgentTokens(deps, a, { nodeId: node.id });
    assert.equal(tokens.length, 1);
    // The secret is base64url and may itself contain "_": take everything after the prefix.
    assert.ok(!JSON.stringify(tokens).includes(issued.token.split("_").slice(2).join("_")));

    await rejects(enrollNode(deps, a, hiveNode), "CONFLICT");
    await rejects(
      enrollNode(deps, a, { ...hiveNode, name: "eth", network: "ethereum-mainnet", apiFamily: "substrate" }),
      "VALIDATION",
    );
    await assert.rejects(enrollNode(deps, a, { ...hiveNode, name: "x", network: "nope" }));
    await rejects(enrollNode(deps, ctxOf(ORG_A, "viewer"), { ...hiveNode, name: "v" }), "FORBIDDEN");
    // Same name in another organization is fine.
    await enrollNode(deps, ctxOf(ORG_B), hiveNode);
  });

  test("another organization's node id is NOT_FOUND for every verb", async () => {
    const { node } = await enrollNode(deps, ctxOf(ORG_B), { ...hiveNode, name: "b-only" });
    const a = ctxOf(ORG_A);
    await rejects(getNode(deps, a, { nodeId: node.id }), "NOT_FOUND");
    await rejects(updateNode(deps, a, { nodeId: node.id, fields: { ...hiveNode, name: "stolen" } }), "NOT_FOUND");
    await rejects(deleteNode(deps, a, { nodeId: node.id }), "NOT_FOUND");
    await rejects(getNodeMetrics(deps, a, { nodeId: node.id, range: "1h" }), "NOT_FOUND");
    await rejects(getNode(deps, a, { nodeId: "not-a-uuid" }), "NOT_FOUND");
    assert.equal((await getNode(deps, ctxOf(ORG_B), { nodeId: node.id })).name, "b-only");
  });

  test("update and delete", async () => {
    const a = ctxOf(ORG_A);
    const { node } = await enrollNode(deps, a, { ...hiveNode, name: "to-edit" });
    const updated = await updateNode(deps, a, { nodeId: node.id, fields: { ...hiveNode, name: "edited", region: "" } });
    assert.deepEqual([updated.name, updated.region], ["edited", null]);
    await rejects(updateNode(deps, a, { nodeId: node.id, fields: hiveNode }), "CONFLICT");
    await deleteNode(deps, a, { nodeId: node.id });
    await rejects(getNode(deps, a, { nodeId: node.id }), "NOT_FOUND");
  });

  test("fleet overview: waiting, up, lagging and down from the newest samples; filter, search, sort", async () => {
    const org = "org-fleet";
    await createTestOrg(db, { id: org });
    const ctx = ctxOf(org);
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    const mk = async (name: string) => (await enrollNode(deps, ctx, { ...hiveNode, name })).node.id;
    const [up, lagging, down, waiting] = [await mk("up-1"), await mk("lag-1"), await mk("down-1"), await mk("wait-1")];
    const samples = [];
    for (let i = 0; i < 30; i++) {
      const time = new Date(now.getTime() - 5_000 - i * 10_000);
      const base = { time, headTime: new Date(time.getTime() - 1_000), tcpEstablished: 40 + i, tcpTimeWait: 7 };
      samples.push({ ...base, nodeId: up, lagBlocks: 0, totalMs: 10 + (i % 10) });
      samples.push({ ...base, nodeId: lagging, lagBlocks: 25, totalMs: 200 });
      samples.push({ ...base, nodeId: down, time: new Date(time.getTime() - 120_000), lagBlocks: 0, totalMs: 5 });
    }
    await insertNodeSamples(db.sql, samples);
    await refreshRollups(db.sql, { from: new Date(now.getTime() - 3_600_000), to: now }, now);

    const all = await getFleetOverview(deps, ctx, { query: {}, now });
    assert.deepEqual(
      all.rows.map((r) => [r.name, r.status]),
      [
        ["down-1", "down"],
        ["lag-1", "lagging"],
        ["up-1", "up"],
        ["wait-1", "waiting"],
      ],
    );
    assert.deepEqual(all.summary, { total: 4, up: 1, lagging: 1, down: 1, waiting: 1 });
    const upRow = all.rows.find((r) => r.id === up)!;
    assert.equal(upRow.connections, 40);
    assert.equal(upRow.timeWait, 7);
    assert.ok(upRow.latencyP50Ms !== null && upRow.latencyP95Ms !== null, "percentiles from rollups");
    assert.ok(upRow.latencyP50Ms <= upRow.latencyP95Ms && upRow.latencyP95Ms <= 19);
    assert.equal(all.rows.find((r) => r.id === waiting)!.lastSeenAt, null);

    const lagOnly = await getFleetOverview(deps, ctx, { query: { status: "lagging" }, now });
    assert.deepEqual(
      lagOnly.rows.map((r) => r.name),
      ["lag-1"],
    );
    assert.equal(lagOnly.summary.total, 4, "summary ignores the filter");
    const search = await getFleetOverview(deps, ctx, { query: { q: "WAIT" }, now });
    assert.deepEqual(
      search.rows.map((r) => r.name),
      ["wait-1"],
    );
    const byLag = await getFleetOverview(deps, ctx, { query: { sort: "lag", dir: "desc" }, now });
    assert.deepEqual(
      byLag.rows.map((r) => r.name),
      ["lag-1", "down-1", "up-1", "wait-1"],
    );
    const junk = await getFleetOverview(deps, ctx, {
      query: { sort: "drop table", status: "x", network: "nope" },
      now,
    });
    assert.deepEqual(
      [junk.query.sort, junk.query.status, junk.query.network, junk.rows.length],
      ["name", undefined, undefined, 4],
    );
  });

  test("fleet pages: 100 rows a page after filter and sort, a count of all matches, a page past the end clamps", async () => {
    const org = "org-fleet-pages";
    await createTestOrg(db, { id: org });
    const ctx = ctxOf(org);
    for (let i = 0; i < 205; i += 41) {
      await Promise.all(
        Array.from({ length: 41 }, (_, j) =>
          enrollNode(deps, ctx, { ...hiveNode, name: `n-${String(i + j).padStart(3, "0")}` }),
        ),
      );
    }
    const first = await getFleetOverview(deps, ctx, { query: {} });
    assert.deepEqual([first.rows.length, first.matched, first.pageCount, first.query.page], [100, 205, 3, 1]);
    assert.equal(first.rows[0]!.name, "n-000");
    const last = await getFleetOverview(deps, ctx, { query: { page: "3", sort: "name", dir: "desc" } });
    assert.deepEqual(
      last.rows.map((r) => r.name),
      ["n-004", "n-003", "n-002", "n-001", "n-000"],
    );
    const past = await getFleetOverview(deps, ctx, { query: { page: "99", q: "n-1" } });
    assert.deepEqual([past.matched, past.pageCount, past.query.page, past.rows.length], [100, 1, 1, 100]);
    const junk = await getFleetOverview(deps, ctx, { query: { page: "-1" } });
    assert.equal(junk.query.page, 1);
    assert.equal(junk.summary.total, 205);
  });

  test("node metrics: columns aligned with time, top remote IPs and their series", async () => {
    const org = "org-metrics";
    await createTestOrg(db, { id: org });
    const ctx = ctxOf(org);
    const { node } = await enrollNode(deps, ctx, { ...hiveNode, name: "m-1" });
    const now = new Date();
    const times = Array.from({ length: 12 }, (_, i) => new Date(now.getTime() - 5_000 - i * 10_000));
    await insertNodeSamples(
      db.sql,
      times.map((time, i) => ({ time, nodeId: node.id, tcpEstablished: i, totalMs: 3 })),
    );
    await insertRemoteIps(
      db.sql,
      times.flatMap((time) => [
        { time, nodeId: node.id, ip: "10.0.0.1", conns: 50 },
        { time, nodeId: node.id, ip: "10.0.0.2", conns: 5 },
      ]),
    );
    const m = await getNodeMetrics(deps, ctx, { nodeId: node.id, range: "1h", now });
    assert.equal(m.resolution, "raw");
    assert.equal(m.node.status, "up");
    assert.equal(m.node.lastSeenAt, times[0]!.toISOString());
    assert.equal(m.time.length, 12);
    assert.equal(m.series.establishedAvg.length, 12);
    assert.deepEqual(m.series.establishedAvg.slice(-2), [1, 0]);
    assert.deepEqual(
      m.topRemoteIps.map((t) => [t.ip, t.maxConns]),
      [
        ["10.0.0.1", 50],
        ["10.0.0.2", 5],
      ],
    );
    assert.deepEqual(m.remoteIps.ips, ["10.0.0.1", "10.0.0.2"]);
    assert.ok(m.remoteIps.conns[0]!.every((v) => v === 50));
    const { node: fresh } = await enrollNode(deps, ctx, { ...hiveNode, name: "m-2" });
    assert.equal((await getNodeMetrics(deps, ctx, { nodeId: fresh.id, range: "1h", now })).node.status, "waiting");
    const long = await getNodeMetrics(deps, ctx, { nodeId: node.id, range: "30d", now });
    assert.equal(long.resolution, "1h");
  });
});
