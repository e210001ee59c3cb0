// The lag tracker against its previous version (support/reference-network-heads.ts, before the
// by-time reference pass and the newest-only observe/measure): on a seeded random fleet of live
// batches, large replayed batches sharing their sample times across nodes (as the ingest bench
// sends), re-sent batches, unordered batches and missing heads, with consensus decisions stored in
// the database, both must give the same lags flush after flush and the same corrections from revise().
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { insertNetworkHead } from "@rpcpulse/db/ingest";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { createNetworkHeadTracker, type NodeHeadBatch } from "../src/ingest/network-heads.js";
import { createReferenceNetworkHeadTracker } from "./support/reference-network-heads.js";

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

describe("lag tracker against the previous version", () => {
  let db: TestDatabase;
  let networkId: string;
  const now = Date.now();

  before(async () => {
    db = await createTestDatabase();
    const { rows } = await db.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'");
    networkId = rows[0]!.id;
    // Consensus decisions every 90 s over the last 40 minutes, with gaps (some samples have none in reach).
    for (let at = now - 40 * 60_000; at <= now; at += 90_000) {
      if (Math.floor(at / 90_000) % 5 === 0) continue;
      await insertNetworkHead(db.pool, {
        networkId,
        time: new Date(at),
        anchorTime: new Date(at - 1_000),
        headBlock: 1_000_000 + Math.floor((at - now) / 3_000) + (Math.floor(at / 90_000) % 3) - 1,
        considered: 3,
        agreeing: 2,
        quorum: 2,
        evidence: [],
      });
    }
  });

  after(async () => {
    await db.drop();
  });

  it("gives the same lags and corrections, flush after flush", async () => {
    const current = createNetworkHeadTracker({ sql: db.pool });
    const reference = createReferenceNetworkHeadTracker({ sql: db.pool });
    const random = lcg(20261128);
    const nodes = Array.from({ length: 36 }, (_, i) => ({
      organizationId: `org_${i % 3}`,
      nodeId: `0000000${i % 3}-0000-4000-8000-${String(i).padStart(12, "0")}`,
      offset: Math.floor(random() * 9) - 6,
    }));
    const headAt = (t: number, offset: number) =>
      random() < 0.08 ? null : 1_000_000 + Math.floor((t - now) / 3_000) + offset + Math.floor(random() * 2);
    const batchOf = (node: (typeof nodes)[number], times: number[]): NodeHeadBatch => ({
      organizationId: node.organizationId,
      networkId,
      nodeId: node.nodeId,
      times,
      heads: times.map((t) => headAt(t, node.offset)),
      headTimes: times.map((t) => (random() < 0.5 ? null : t - Math.floor(random() * 4_000))),
    });
    const sent: NodeHeadBatch[] = [];
    let compared = 0;
    let corrections = 0;
    for (let flush = 0; flush < 80; flush++) {
      const clock = now - 20 * 60_000 + flush * 15_000;
      await current.refresh(clock);
      await reference.refresh(clock);
      const group: NodeHeadBatch[] = [];
      const kind = random();
      if (kind < 0.25) {
        // Replayed spools: many nodes, the same 60-300 sample times 10 s apart, as the bench sends them.
        const count = 60 + Math.floor(random() * 240);
        const start = clock - count * 10_000 + Math.floor(random() * 3) * 1_000;
        const times = Array.from({ length: count }, (_, i) => start + i * 10_000);
        for (let b = 0; b < 2 + Math.floor(random() * 8); b++)
          group.push(batchOf(nodes[Math.floor(random() * nodes.length)]!, [...times]));
      } else {
        // Live batches of 1-4 samples around the clock, out of time order now and then.
        for (let b = 0; b < 1 + Math.floor(random() * 14); b++) {
          const start = clock + Math.floor(random() * 30_000) - 20_000;
          const samples = 1 + Math.floor(random() * 4);
          const times = Array.from({ length: samples }, (_, i) => start + i * 3_000);
          if (random() < 0.1) times.reverse();
          group.push(batchOf(nodes[Math.floor(random() * nodes.length)]!, times));
        }
      }
      // A batch sent before comes again now and then (a retry): same times, same heads.
      if (sent.length > 0 && random() < 0.2) group.push(sent[Math.floor(random() * sent.length)]!);
      // A long batch whose times do not strictly increase (a repeated time inside it).
      if (random() < 0.1) {
        const times = Array.from({ length: 90 }, (_, i) => clock - 900_000 + i * 10_000);
        times[40] = times[39]!;
        group.push(batchOf(nodes[Math.floor(random() * nodes.length)]!, times));
      }
      sent.push(...group);

      for (const batch of group) {
        current.observe(batch);
        reference.observe(batch);
      }
      const expected = reference.lagBlocksOfBatches(group);
      assert.deepEqual(current.lagBlocksOfBatches(group), expected, `lags of flush ${flush}`);
      const revised = reference.revise(group);
      assert.deepEqual(current.revise(group), revised, `corrections after flush ${flush}`);
      compared += expected.flat().filter((lag) => lag !== null).length;
      corrections += revised.length;
    }
    assert.ok(compared > 3_000, `${compared} lags compared`);
    assert.ok(corrections > 20, `${corrections} corrections compared`);
  });

  it("gives the same lags and corrections for a 400-node organization's live batches (peers skipped by their keys)", async () => {
    // As the fleet bench sends: one sample per batch every 10 s per node, phases spread over the
    // interval, heads 1,000,000 + sequence and read 1.5 s before the sample (so the peers' projections
    // differ and tie by turns); flushes of 40-120 batches, arriving a little out of order.
    const current = createNetworkHeadTracker({ sql: db.pool });
    const reference = createReferenceNetworkHeadTracker({ sql: db.pool });
    const random = lcg(13_2026);
    const start = now - 10 * 60_000;
    const fleet = Array.from({ length: 400 }, (_, i) => ({
      nodeId: `00000009-0000-4000-8000-${String(i).padStart(12, "0")}`,
      phase: Math.floor(random() * 10_000),
    }));
    const due = fleet
      .flatMap((node) =>
        Array.from({ length: 12 }, (_, seq) => ({ node, seq: seq + 1, t: start + node.phase + seq * 10_000 })),
      )
      .sort((a, b) => a.t - b.t);
    let compared = 0;
    for (let from = 0, flush = 0; from < due.length; flush++) {
      const size = 40 + Math.floor(random() * 80);
      const slice = due.slice(from, from + size);
      from += size;
      const clock = slice[slice.length - 1]!.t + 500;
      await current.refresh(clock);
      await reference.refresh(clock);
      const group: NodeHeadBatch[] = slice
        .sort(() => random() - 0.5)
        .map(({ node, seq, t }) => ({
          organizationId: "org_big",
          networkId,
          nodeId: node.nodeId,
          times: [t],
          heads: [random() < 0.05 ? null : 1_000_000 + seq + (random() < 0.1 ? 1 : 0)],
          headTimes: [random() < 0.1 ? null : t - 1_500],
        }));
      for (const batch of group) {
        current.observe(batch);
        reference.observe(batch);
      }
      const expected = reference.lagBlocksOfBatches(group);
      assert.deepEqual(current.lagBlocksOfBatches(group), expected, `lags of flush ${flush}`);
      assert.deepEqual(current.revise(group), reference.revise(group), `corrections after flush ${flush}`);
      compared += expected.flat().filter((lag) => lag !== null).length;
    }
    assert.ok(compared > 4_000, `${compared} lags compared`);
  });
});
