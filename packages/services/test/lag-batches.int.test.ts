// The lag tracker's flush-wide pass (lagBlocksOfBatches) against lagBlocks batch by batch, on a
// seeded random fleet: the same lags, and afterwards the same corrections from revise().
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { createNetworkHeadTracker, type NodeHeadBatch } from "../src/ingest/network-heads.js";

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

describe("lag tracker: one pass per flush", () => {
  let db: TestDatabase;
  let networkId: string;

  before(async () => {
    db = await createTestDatabase();
    const { rows } = await db.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'");
    networkId = rows[0]!.id;
  });

  after(async () => {
    await db.drop();
  });

  it("gives the same lags and the same later corrections as lagBlocks batch by batch", async () => {
    const now = Date.now();
    const sequential = createNetworkHeadTracker({ sql: db.pool });
    const batched = createNetworkHeadTracker({ sql: db.pool });
    await sequential.refresh(now);
    await batched.refresh(now);
    const random = lcg(7);
    // Two organizations, 40 nodes, heads around 1,000,000 (some ahead, some behind, some missing),
    // arriving in flushes of up to 12 batches of 1–3 samples, out of time order now and then.
    const nodes = Array.from({ length: 40 }, (_, i) => ({
      organizationId: `org_${i % 2}`,
      nodeId: `0000000${i % 2}-0000-4000-8000-${String(i).padStart(12, "0")}`,
      offset: Math.floor(random() * 9) - 6,
    }));
    let compared = 0;
    for (let flush = 0; flush < 60; flush++) {
      const group: NodeHeadBatch[] = [];
      const size = 1 + Math.floor(random() * 12);
      for (let b = 0; b < size; b++) {
        const node = nodes[Math.floor(random() * nodes.length)]!;
        const start = now - 600_000 + flush * 9_000 + Math.floor(random() * 25_000) - 10_000;
        const samples = 1 + Math.floor(random() * 3);
        const times = Array.from({ length: samples }, (_, i) => start + i * 3_000);
        group.push({
          organizationId: node.organizationId,
          networkId,
          nodeId: node.nodeId,
          times,
          heads: times.map((t) =>
            random() < 0.1 ? null : 1_000_000 + Math.floor((t - now) / 3_000) + node.offset + Math.floor(random() * 2),
          ),
          headTimes: times.map((t) => (random() < 0.5 ? null : t - Math.floor(random() * 4_000))),
        });
      }
      for (const batch of group) {
        sequential.observe(batch);
        batched.observe(batch);
      }
      const one = group.map((batch) => sequential.lagBlocks(batch));
      const all = batched.lagBlocksOfBatches(group);
      assert.deepEqual(all, one, `flush ${flush}`);
      assert.deepEqual(batched.revise(group), sequential.revise(group), `corrections after flush ${flush}`);
      compared += one.flat().filter((lag) => lag !== null).length;
    }
    assert.ok(compared > 300, `${compared} lags compared`);
  });
});
