// Node lag against the consensus head, end to end on real PostgreSQL: the worker's decision job
// (decideNetworkHeads → network_heads), the ingest writer's tracker and the binary COPY flush
// (node_samples.lag_blocks). Arrival orders are permuted; no tenant can move another's lag.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { ensureVantagePoint, insertProbeResults, type ProbeResultInput } from "@rpcpulse/db/directory";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import type { AgentBatch, AgentSample } from "@rpcpulse/domain";
import { parsePayload } from "@rpcpulse/queue";
import {
  createIngestWriter,
  createNetworkHeadTracker,
  decideNetworkHeads,
  normaliseAgentBatch,
  type IngestWriteJob,
} from "@rpcpulse/services/ingest";
import { getNetworkHead } from "@rpcpulse/services/directory";
import { wireSample } from "./advisor-fixtures.js";

const HIVE_MS = 3_000;
/** A Hive height produced exactly at `ms` (slot boundary every 3 s from an anchor). */
const ANCHOR_MS = Date.UTC(2026, 0, 1);
const heightAt = (ms: number) => 101_200_000 + Math.floor((ms - ANCHOR_MS) / HIVE_MS);
const timeOf = (height: number) => ANCHOR_MS + (height - 101_200_000) * HIVE_MS;

function chainSample(at: number, head: number): AgentSample {
  return wireSample(at, {
    chain: {
      family: "hive",
      ok: true,
      headBlock: head,
      headHash: null,
      headTime: new Date(timeOf(head)).toISOString(),
      headTimeSource: "block",
      headAgeMs: Math.max(0, at - timeOf(head)),
      finalizedBlock: head - 15,
      peers: 10,
      syncing: false,
      clientVersion: "hived 1.27.11",
      latency: null,
      error: null,
    } as AgentSample["chain"],
  });
}

describe("node lag against the consensus head (real PostgreSQL, real writer)", () => {
  let db: TestDatabase;
  let hive = "";
  let steem = "";
  const suffix = randomBytes(3).toString("hex");
  const orgs = { a: `org_a_${suffix}`, b: `org_b_${suffix}`, c: `org_c_${suffix}` };
  const nodes: Record<string, { id: string; org: string; network: string }> = {};
  let seq = 0;

  const addNode = async (name: string, org: string, network: string) => {
    const { id } = await createTestNode(db, { organizationId: org, networkId: network, name });
    nodes[name] = { id, org, network };
  };

  /** One batch of one sample of `name` at `at` with head `head`, as the worker's ingest job carries it. */
  const job = (name: string, at: number, head: number): IngestWriteJob => {
    const n = nodes[name]!;
    seq++;
    const batch = {
      wireVersion: 1,
      agent: { version: "0.1.0", hostname: name },
      batchSeq: seq,
      sentAt: new Date(at).toISOString(),
      samples: [chainSample(at, head)],
    } as AgentBatch;
    return parsePayload("ingest", {
      organizationId: n.org,
      nodeId: n.id,
      networkId: n.network,
      batchSeq: seq,
      receivedAtMs: at,
      clockSkewMs: 0,
      agentVersion: "0.1.0",
      ...normaliseAgentBatch(batch),
    });
  };

  const storedLag = async (name: string, at: number) => {
    const { rows } = await db.pool.query<{ lag_blocks: number | null }>(
      "SELECT lag_blocks FROM node_samples WHERE node_id = $1 AND time = $2",
      [nodes[name]!.id, new Date(at)],
    );
    assert.equal(rows.length, 1, `one sample of ${name} at ${at}`);
    return rows[0]!.lag_blocks;
  };

  before(async () => {
    db = await createTestDatabase();
    const ids = await db.pool.query<{ id: string; slug: string }>(
      "SELECT id, slug FROM networks WHERE slug IN ('hive', 'steem')",
    );
    hive = ids.rows.find((r) => r.slug === "hive")!.id;
    steem = ids.rows.find((r) => r.slug === "steem")!.id;
    for (const org of Object.values(orgs)) await createTestOrg(db, { id: org });
    await addNode("a-leader", orgs.a, hive);
    await addNode("a-follower", orgs.a, hive);
    await addNode("b-liar", orgs.b, hive);
    await addNode("b-alone", orgs.b, steem);
  });
  after(async () => db?.drop());

  test("own nodes: the follower's lag is exact in either arrival order; a node alone is unknown, never 0", async () => {
    const tracker = createNetworkHeadTracker({ sql: db.pool }, { refreshMs: 0 });
    const writer = createIngestWriter({ pool: db.pool }, { networkHeads: tracker, maxDelayMs: 1 });
    const t0 = Date.now() - 120_000;
    // Ten rounds 10 s apart; odd rounds: the follower's batch is written before the leader's.
    for (let r = 0; r < 10; r++) {
      const at = t0 + r * 10_000;
      const leader = job("a-leader", at + 150, heightAt(at + 150));
      const follower = job("a-follower", at + 900, heightAt(at + 900) - 7);
      const order = r % 2 ? [follower, leader] : [leader, follower];
      for (const j of order) await writer.write(j);
      const alone = job("b-alone", at + 400, 100_000_000 + r);
      await writer.write(alone);
    }
    await writer.close();
    for (let r = 1; r < 10; r++) {
      const at = t0 + r * 10_000;
      assert.equal(await storedLag("a-follower", at + 900), 7, `round ${r}: follower 7 behind`);
      assert.equal(await storedLag("a-leader", at + 150), 0, `round ${r}: leader level`);
      assert.equal(await storedLag("b-alone", at + 400), null, `round ${r}: no reference, unknown`);
    }
  });

  test("a leader's batch that arrives after its follower's revises the follower's stored lag", async () => {
    const tracker = createNetworkHeadTracker({ sql: db.pool }, { refreshMs: 0 });
    const writer = createIngestWriter({ pool: db.pool }, { networkHeads: tracker, maxDelayMs: 1 });
    // On a slot boundary, so no block falls between the leader's sample (t0 + 5 s) and the follower's (t0 + 5.3 s):
    // the leader's head is ahead of its own head time, so it is projected from its observation time, and a block
    // in between would make the follower's true lag 39 (the test failed so about one run in seven).
    const t0 = timeOf(heightAt(Date.now() - 60_000));
    // Both level at first.
    await writer.write(job("a-leader", t0, heightAt(t0)));
    await writer.write(job("a-follower", t0 + 300, heightAt(t0 + 300)));
    // The leader jumps 40 blocks ahead of the follower (a catch-up, or blocks mined at once on a dev
    // chain); the follower's next batch arrives first and is measured against the old leader head.
    const follower = job("a-follower", t0 + 5_300, heightAt(t0 + 5_300));
    await writer.write(follower);
    assert.equal(await storedLag("a-follower", t0 + 5_300), 0, "measured before the leader's batch arrived");
    await writer.write(job("a-leader", t0 + 5_000, heightAt(t0 + 5_000) + 40));
    await writer.close();
    assert.equal(await storedLag("a-follower", t0 + 5_300), 40, "revised when the leader's batch arrived");
    assert.equal(await storedLag("a-leader", t0 + 5_000), 0);
  });

  test("another organization's node never changes your lag; the consensus needs two independent sources", async () => {
    const now = Date.now();
    const tracker = createNetworkHeadTracker({ sql: db.pool }, { refreshMs: 0 });
    const writer = createIngestWriter({ pool: db.pool }, { networkHeads: tracker, maxDelayMs: 1 });
    // Organization B's node claims a head 5,000 blocks ahead (plausible, wrong).
    await writer.write(job("b-liar", now - 20_000, heightAt(now - 20_000) + 5_000));
    await writer.write(job("b-liar", now - 10_000, heightAt(now - 10_000) + 5_000));
    const report = await decideNetworkHeads({ sql: db.pool }, { now: new Date(now - 5_000) });
    assert.equal(report.decided, 0, "no directory endpoint and a single organization: no consensus");
    const follower = job("a-follower", now - 4_000, heightAt(now - 4_000) - 3);
    await writer.write(job("a-leader", now - 4_100, heightAt(now - 4_100)));
    await writer.write(follower);
    await writer.close();
    assert.equal(await storedLag("a-follower", now - 4_000), 3, "A's view: A's leader, not B's claim");
  });

  test("a lone node gets its lag from the directory's consensus; a bogus endpoint cannot move it", async () => {
    const now = Date.now();
    const server = await ensureVantagePoint(db.pool, { name: "server:test", region: "eu-central", kind: "server" });
    const endpoints: string[] = [];
    for (const name of ["e1", "e2", "e3", "bogus"]) {
      const { rows } = await db.pool.query<{ id: string }>(
        `INSERT INTO public_endpoints (network_id, api_family, url, name, status) VALUES ($1, 'hive', $2, $3, 'active') RETURNING id`,
        [hive, `https://${name}.example.org`, name],
      );
      endpoints.push(rows[0]!.id);
    }
    const probes: ProbeResultInput[] = endpoints.map((endpointId, i) => {
      const at = now - 20_000 + i * 2_000;
      const head = i === 3 ? heightAt(at) + 10_000 : heightAt(at);
      return {
        time: new Date(at),
        endpointId,
        vantagePointId: server.id,
        ok: true,
        httpStatus: 200,
        headBlock: head,
        headTime: new Date(timeOf(head)),
        totalMs: 20,
        ttfbMs: 18,
      };
    });
    await insertProbeResults(db.pool, probes);
    const report = await decideNetworkHeads({ sql: db.pool }, { now: new Date(now - 1_000) });
    assert.ok(report.decided >= 1);
    const head = await getNetworkHead({ sql: db.pool, now: () => new Date(now) }, { network: "hive" });
    assert.equal(head?.block, heightAt(now), "the stored decision projected to now is the true head");
    assert.equal(head?.quorum, 2);
    assert.equal(head?.agreeing, 3);

    // Organization C has one Hive node: no own reference, so its lag comes from the consensus alone.
    await addNode("c-lone", orgs.c, hive);
    const tracker = createNetworkHeadTracker({ sql: db.pool }, { refreshMs: 0 });
    const writer = createIngestWriter({ pool: db.pool }, { networkHeads: tracker, maxDelayMs: 1 });
    await writer.write(job("c-lone", now + 500, heightAt(now + 500) - 12));
    await writer.close();
    assert.equal(await storedLag("c-lone", now + 500), 12, "a node alone in its organization: lag from the directory");
  });
});
