/**
 * Public head vs node head against simnet, in plain PostgreSQL and TimescaleDB (PGlite) mode: a node
 * whose public URL points at a simnet node lagging 12 blocks (a load balancer serving a stale
 * backend) while its own head, as an agent reads it from the fresh node, is current. The worker's
 * round stores the public head and the fleet and node views show the difference.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  createTestDatabase,
  createTestNode,
  createTestOrg,
  createTimescaleTestDatabase,
  type TestDatabase,
  type TimescaleTestDatabase,
} from "@rpcpulse/db/testing";
import { createSafeHttpClient, probeEndpoint } from "@rpcpulse/prober";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { getFleetOverview, probeNodePublicHeads, type FleetRow } from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG = "org-public-heads";
const LAG = 12;
const ctx: ServiceContext = { userId: "u1", organizationId: ORG, organizationSlug: ORG, role: "viewer" };
const allowPrivate = createSafeHttpClient({ allowPrivate: true, timeoutMs: 5_000 });

const NODES = {
  stale: "66666666-6666-4666-8666-6666666666a1",
  fresh: "66666666-6666-4666-8666-6666666666a2",
  down: "66666666-6666-4666-8666-6666666666a3",
  remote: "66666666-6666-4666-8666-6666666666a4",
};

async function seedFleet(sql: SqlClient, sim: Simnet, ownHead: number, at: Date): Promise<void> {
  await sql.query(`INSERT INTO chains (slug, name, api_families, finality, finality_note)
                   VALUES ('hive', 'Hive', '{hive}', 'irreversible', '') ON CONFLICT DO NOTHING`);
  await sql.query(`INSERT INTO networks (slug, chain_slug, name, block_interval_ms)
                   VALUES ('hive', 'hive', 'Hive', 3000) ON CONFLICT (slug) DO NOTHING`);
  await createTestOrg(sql, { id: ORG, name: "Org" });
  const urls: Record<keyof typeof NODES, string> = {
    stale: sim.node("hive-stale").url,
    fresh: sim.node("hive-fresh").url,
    down: sim.node("hive-down").url,
    remote: "https://rpc.example.invalid/",
  };
  for (const [name, id] of Object.entries(NODES) as [keyof typeof NODES, string][]) {
    await createTestNode(sql, { id, organizationId: ORG, name, publicUrl: urls[name] });
  }
  // Every node's agent reports the fresh head one second before the round.
  await insertNodeSamples(
    sql,
    Object.values(NODES).map((nodeId) => ({ time: at, nodeId, headBlock: ownHead, finalizedBlock: ownHead - 20 })),
  );
}

async function runScenario(sql: SqlClient, sim: Simnet, ownHead: number, at: Date) {
  await seedFleet(sql, sim, ownHead, at);
  const privateOnly = await probeNodePublicHeads({ sql }, { client: allowPrivate, concurrency: 4, onlyPrivate: true });
  const overview = await getFleetOverview({ sql }, ctx, { query: {}, now: new Date(at.getTime() + 5_000) });
  const rows = new Map(overview.rows.map((r) => [r.name, r]));
  const pick = (r: FleetRow | undefined) =>
    r && {
      finalityLagBlocks: r.finalityLagBlocks,
      verdict: r.publicHead?.verdict ?? null,
      headBlock: r.publicHead?.headBlock ?? null,
      nodeHeadBlock: r.publicHead?.nodeHeadBlock ?? null,
      diffBlocks: r.publicHead?.diffBlocks ?? null,
      failing: r.publicHead?.failingSince !== null && r.publicHead?.failingSince !== undefined,
    };
  return {
    privateOnly,
    stale: pick(rows.get("stale")),
    fresh: pick(rows.get("fresh")),
    down: pick(rows.get("down")),
    remote: pick(rows.get("remote")),
    staleMessage: rows.get("stale")?.publicHead?.message ?? "",
    sortedByFinality: (await getFleetOverview({ sql }, ctx, { query: { sort: "finality" } })).rows.length,
  };
}

describe("public head vs node head (simnet, both storage modes)", () => {
  let sim: Simnet;
  let plain: TestDatabase;
  let ts: TimescaleTestDatabase;
  let ownHead: number;
  let at: Date;
  let plainResult: Awaited<ReturnType<typeof runScenario>>;

  before(async () => {
    // A clock that stands still: both simnet nodes keep their heights for the whole test.
    const clock = new ManualClock(Date.now());
    sim = await startSimnet(
      {
        seed: "public-heads",
        nodes: [
          { name: "hive-fresh", family: "hive", network: "hive" },
          { name: "hive-stale", family: "hive", network: "hive", lagBlocks: LAG },
          { name: "hive-down", family: "hive", network: "hive", errorRate: 1, errorKind: "http-503" },
        ],
      },
      { clock },
    );
    // The node's own head, read from the fresh node the way its agent reads it.
    const own = await probeEndpoint({ url: sim.node("hive-fresh").url, family: "hive", network: "hive" }, allowPrivate);
    assert.ok(own.ok && own.headBlock !== null, `fresh node answers: ${own.errorMessage}`);
    ownHead = own.headBlock;
    at = new Date(Date.now() - 1_000);
    plain = await createTestDatabase();
    ts = await createTimescaleTestDatabase();
    plainResult = await runScenario(plain.pool, sim, ownHead, at);
  });

  after(async () => {
    await sim?.close();
    await plain?.drop();
    await ts?.close();
  });

  test("the stale public URL: head 12 blocks behind the node's own, flagged behind", () => {
    assert.equal(sim.node("hive-stale").head(), ownHead - LAG, "simnet lags as configured");
    assert.deepEqual(plainResult.stale, {
      finalityLagBlocks: 20,
      verdict: "behind",
      headBlock: ownHead - LAG,
      nodeHeadBlock: ownHead,
      diffBlocks: -LAG,
      failing: false,
    });
    assert.match(plainResult.staleMessage, /12 blocks behind the node's own head/);
  });

  test("a public URL serving the node's head is ok; a failing one is flagged failing; public hosts skipped", () => {
    assert.deepEqual(plainResult.fresh, {
      finalityLagBlocks: 20,
      verdict: "ok",
      headBlock: ownHead,
      nodeHeadBlock: ownHead,
      diffBlocks: 0,
      failing: false,
    });
    assert.equal(plainResult.down?.verdict, "failing");
    assert.equal(plainResult.down?.failing, true);
    assert.equal(plainResult.down?.headBlock, null);
    // PROBE_ONLY_PRIVATE: the public host was never contacted, so nothing is stored for it.
    assert.equal(plainResult.remote?.verdict, null);
    assert.deepEqual(
      [plainResult.privateOnly.checked, plainResult.privateOnly.ok, plainResult.privateOnly.failed],
      [3, 2, 1],
    );
    assert.equal(plainResult.privateOnly.skipped, 1);
    assert.equal(plainResult.sortedByFinality, 4);
  });

  test("TimescaleDB mode stores and shows the same", async () => {
    const r = await runScenario(ts.sql, sim, ownHead, at);
    assert.deepEqual(r, plainResult);
  });

  test("without PROBE_ALLOW_PRIVATE the SSRF guard refuses loopback URLs: recorded as failing, never fetched", async () => {
    const guarded = createSafeHttpClient({ allowPrivate: false, timeoutMs: 2_000 });
    const report = await probeNodePublicHeads(
      { sql: plain.pool },
      { client: guarded, concurrency: 2, onlyPrivate: true, nodeIds: [NODES.fresh] },
    );
    assert.deepEqual([report.checked, report.ok, report.failed], [1, 0, 1]);
    const overview = await getFleetOverview({ sql: plain.pool }, ctx, { query: {} });
    const fresh = overview.rows.find((r) => r.name === "fresh")?.publicHead;
    assert.equal(fresh?.verdict, "failing");
    // The last head the URL served is kept for the comparison.
    assert.equal(fresh?.headBlock, ownHead);
    assert.match(fresh?.error ?? "", /private|blocked|loopback|not allowed/i);
  });
});
