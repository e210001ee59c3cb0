import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertNodeSamples, type NodeSampleInput } from "@rpcpulse/db/fleet";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { enrollNode, getFleetOverview, type NodeStatus } from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG = "org-fleet-index";
const ctx: ServiceContext = { userId: "u", organizationId: ORG, organizationSlug: ORG, role: "owner" };

// The fleet overview computes status from a lean index (epoch ms) unless it sorts by latency or
// chain heads (then from the full rows, as before). Both must agree for nodes in every state,
// including the thresholds' edges and a sample time with sub-millisecond digits.
describe("fleet overview: index status = full-row status", () => {
  let db: TestDatabase;
  let deps: { prisma: TestDatabase["prisma"]; sql: TestDatabase["pool"] };
  before(async () => {
    db = await createTestDatabase();
    deps = { prisma: db.prisma, sql: db.pool };
    await createTestOrg(db, { id: ORG });
  });
  after(async () => {
    await db.drop();
  });

  test("every state and edge gives the same status, head age and last seen on both paths", async () => {
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const hive = { network: "hive", apiFamily: "hive", clientName: "hived", localRpcUrl: "http://127.0.0.1:8091" };
    const eth = {
      network: "ethereum-mainnet",
      apiFamily: "ethereum",
      clientName: "geth",
      localRpcUrl: "http://127.0.0.1:8545",
    };
    // name -> [network, newest sample (omitted: none), last receipt, expected status]
    const cases: [string, typeof hive, Omit<NodeSampleInput, "nodeId"> | null, Date | null, NodeStatus][] = [
      ["a-waiting", hive, null, null, "waiting"],
      ["b-receipt-only", hive, null, ago(5_000), "up"],
      ["c-receipt-old", hive, null, ago(30_001), "down"],
      ["d-silent", hive, { time: ago(30_001), lagBlocks: 0 }, null, "down"],
      ["e-silent-edge", hive, { time: ago(30_000), lagBlocks: 0 }, null, "up"],
      ["f-late-receipt", hive, { time: ago(90_000), lagBlocks: 0 }, ago(2_000), "up"],
      ["g-syncing", hive, { time: ago(1_000), lagBlocks: 0, syncing: true }, null, "lagging"],
      ["h-lag-9", hive, { time: ago(1_000), lagBlocks: 9 }, null, "up"],
      ["i-lag-10", hive, { time: ago(1_000), lagBlocks: 10 }, null, "lagging"],
      ["j-head-59999", hive, { time: ago(1_000), headTime: ago(59_999) }, null, "up"],
      ["k-head-60000", hive, { time: ago(1_000), headTime: ago(60_000) }, null, "lagging"],
      ["l-head-future", hive, { time: ago(1_000), headTime: new Date(now.getTime() + 5_000) }, null, "up"],
      ["m-head-age-only", hive, { time: ago(1_000), headAgeMs: 70_000 }, null, "lagging"],
      ["n-head-age-fresh", hive, { time: ago(1_000), headAgeMs: 1_000, syncing: false }, null, "up"],
      ["o-eth-lag-3", eth, { time: ago(1_000), lagBlocks: 3 }, null, "lagging"],
      ["p-eth-lag-2", eth, { time: ago(1_000), lagBlocks: 2 }, null, "up"],
      ["q-eth-head-100s", eth, { time: ago(1_000), headTime: ago(100_000) }, null, "up"],
      ["r-eth-head-120s", eth, { time: ago(1_000), headTime: ago(120_000) }, null, "lagging"],
      ["s-sub-ms", hive, { time: ago(30_001), lagBlocks: 0 }, null, "up"],
    ];
    const samples: NodeSampleInput[] = [];
    for (const [name, net, sample, receipt] of cases) {
      const { node } = await enrollNode(deps, ctx, { ...net, name });
      if (sample) samples.push({ ...sample, nodeId: node.id });
      if (receipt) await db.prisma.node.update({ where: { id: node.id }, data: { lastSeenAt: receipt } });
    }
    await insertNodeSamples(db.sql, samples);
    // 29,999.5 ms before now: a JS Date of it truncates to 29,999 ms ago (up); so must the index.
    await db.sql.query(
      `UPDATE node_samples SET time = $1::timestamptz + interval '0.5 ms'
       WHERE node_id = (SELECT id FROM nodes WHERE name = 's-sub-ms') `,
      [ago(30_000)],
    );
    await db.sql.query(
      `UPDATE node_latest SET time = $1::timestamptz + interval '0.5 ms'
       WHERE node_id = (SELECT id FROM nodes WHERE name = 's-sub-ms')`,
      [ago(30_000)],
    );

    const byIndex = await getFleetOverview(deps, ctx, { query: { sort: "name" }, now });
    const byFull = await getFleetOverview(deps, ctx, { query: { sort: "p95" }, now });
    const view = (rows: typeof byIndex.rows) =>
      Object.fromEntries(
        rows.map((r) => [r.name, [r.status, r.headAgeMs, r.lastSeenAt?.getTime() ?? null, r.lagBlocks]]),
      );
    assert.deepEqual(
      byIndex.rows.map((r) => [r.name, r.status]),
      cases.map(([name, , , , status]) => [name, status]),
    );
    assert.deepEqual(view(byIndex.rows), view(byFull.rows));
    assert.deepEqual(byIndex.summary, byFull.summary);
    assert.deepEqual(byIndex.summary, { total: 19, up: 10, lagging: 6, down: 2, waiting: 1 });
    // The status filter runs on the index's status.
    for (const status of ["up", "lagging", "down", "waiting"] as const) {
      const only = await getFleetOverview(deps, ctx, { query: { status }, now });
      assert.equal(only.matched, byIndex.summary[status]);
      assert.ok(only.rows.every((r) => r.status === status));
    }
  });
});
