// Consensus-client status components through the real database (plain mode): a public status page lists
// the Ethereum consensus client beside a node of the organization (kind consensus_client, migration
// 0025) next to the node itself, shows its public facts (client and version, head slot against the wall
// slot, flags; never the Beacon API URL or its error) and its state, and the worker's uptime precompute
// scores its days from beacon_samples apart from the node's own days. Another organization's node cannot
// be listed.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { writeBeaconSamples, type BeaconSampleRow } from "@rpcpulse/db/fleet";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import {
  createStatusComponent,
  createStatusPage,
  getPublicStatusPage,
  listComponentCandidates,
  refreshStatusUptimeDays,
} from "@rpcpulse/services/status";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG = "org-consensus-components";
const OTHER = "org-consensus-other";
const DAY_MS = 86_400_000;
/** Three days ago at UTC midnight: days 1-2 are finished, day 3 is "today". */
const D1 = Math.floor(Date.now() / DAY_MS) * DAY_MS - 2 * DAY_MS;
const STEP_MS = 30_000;

function ctxOf(organizationId: string): ServiceContext {
  return { userId: `u-${organizationId}`, organizationId, organizationSlug: organizationId, role: "owner" };
}

describe("consensus client status components", () => {
  let db: TestDatabase;
  const ctx = ctxOf(ORG);

  async function createNode(organizationId: string, name: string, family: "ethereum" | "hive"): Promise<string> {
    const node = await createTestNode(db, {
      organizationId,
      network: family === "ethereum" ? "ethereum-mainnet" : family,
      apiFamily: family,
      clientName: family === "ethereum" ? "nethermind" : "hived",
      name,
      localRpcUrl: "http://127.0.0.1:8545",
      createdAt: new Date(D1),
    });
    return node.id;
  }

  /** One reading at `at`, `behind` slots behind the wall-clock slot. */
  function reading(at: number, behind: number, over: Partial<BeaconSampleRow> = {}): BeaconSampleRow {
    const wall = Math.floor(at / 12_000);
    return {
      time: at,
      ok: true,
      headSlot: wall - behind,
      wallSlot: wall,
      slotsBehind: behind,
      syncDistance: behind,
      syncing: behind > 2,
      optimistic: false,
      elOffline: false,
      peers: 60,
      version: "teku/v24.1.0/linux-x86_64/-eclipseadoptium-openjdk64bitservervm-java-21",
      execBlock: 20_000_000,
      execHash: `0x${"cd".repeat(32)}`,
      elBlock: 20_000_000,
      elCheck: "match",
      error: null,
      ...over,
    };
  }

  async function readEvery(nodeId: string, from: number, to: number, f: (at: number) => BeaconSampleRow) {
    const rows: BeaconSampleRow[] = [];
    for (let at = from; at < to; at += STEP_MS) rows.push(f(at));
    await writeBeaconSamples(db.pool, [{ nodeId, beacon: rows }]);
  }

  before(async () => {
    db = await createTestDatabase();
    for (const id of [ORG, OTHER]) await createTestOrg(db, { id });
  });
  after(async () => {
    await db?.drop();
  });

  it("lists the consensus client beside its node, with its facts, states and days", async () => {
    const deps = { prisma: db.prisma, sql: db.pool };
    const node = await createNode(ORG, "eth-main", "ethereum");
    const D2 = D1 + DAY_MS;
    const D3 = D2 + DAY_MS;
    // Day 1 clean; day 2: 6 hours 5 slots behind (degraded), 6 hours with the Beacon API failing (down).
    await readEvery(node, D1, D2, (at) => reading(at, 0));
    await readEvery(node, D2, D3, (at) => {
      const hour = Math.floor((at - D2) / 3_600_000);
      if (hour < 6) return reading(at, 5);
      if (hour < 12)
        return reading(at, 0, {
          ok: false,
          headSlot: null,
          slotsBehind: null,
          error: "connect ECONNREFUSED 10.1.2.3:5052",
        });
      return reading(at, 0);
    });
    await readEvery(node, D3, D3 + 3_600_000, (at) => reading(at, 0));

    // The editor offers it under the consensus clients, labelled with client and version.
    const candidates = await listComponentCandidates(deps, ctx);
    assert.deepEqual(candidates.consensusClients, [
      { ref: `consensus_client:${node}`, label: "teku v24.1.0 · beside eth-main (Ethereum mainnet)" },
    ]);

    const page = await createStatusPage(deps, ctx, { slug: "eth-watch", title: "Ethereum", isPublic: true });
    const nodeComponent = await createStatusComponent(deps, ctx, { pageId: page.id, fields: { ref: `node:${node}` } });
    const cl = await createStatusComponent(deps, ctx, { pageId: page.id, fields: { ref: `consensus_client:${node}` } });
    await assert.rejects(
      createStatusComponent(deps, ctx, { pageId: page.id, fields: { ref: `consensus_client:${node}` } }),
      (e: { code?: string }) => e.code === "CONFLICT",
    );

    const snap = async (at: number) => {
      const s = await getPublicStatusPage(deps, { slug: "eth-watch" }, { now: new Date(at), fresh: true });
      const c = s.components.find((x) => x.id === cl.id);
      assert.ok(c, "the consensus client is on the page");
      return { c, s, json: JSON.stringify(s) };
    };
    const write = (at: number, behind: number, over: Partial<BeaconSampleRow> = {}) =>
      writeBeaconSamples(db.pool, [{ nodeId: node, beacon: [reading(at, behind, over)] }]);

    let t = D3 + 3_600_000;
    const ok = await snap(t);
    assert.equal(ok.c.kind, "consensus_client");
    assert.equal(ok.c.name, "eth-main consensus client");
    assert.equal(ok.c.network, "Ethereum mainnet");
    assert.equal(ok.c.state, "operational");
    assert.equal(ok.c.consensus?.client, "teku");
    assert.equal(ok.c.consensus?.version, "v24.1.0");
    assert.equal(ok.c.consensus?.slotsBehind, 0);
    assert.equal(ok.c.producer, null);
    assert.ok(
      ok.s.components.some((x) => x.id === nodeComponent.id && x.kind === "node"),
      "the node is listed too",
    );
    // Days: 1 clean; 2 a quarter degraded, a quarter down (the API failing).
    const [d1, d2] = ok.c.days.slice(-3);
    assert.equal(d1?.level, "ok");
    assert.equal(d2?.uptime, 0.75);
    assert.equal(d2?.level, "major");

    // 4 slots behind: degraded; optimistic: degraded.
    t += 30_000;
    await write(t, 4);
    assert.equal((await snap(t)).c.state, "degraded");
    t += 30_000;
    await write(t, 0, { optimistic: true });
    const optimistic = await snap(t);
    assert.equal(optimistic.c.state, "degraded");
    assert.equal(optimistic.c.consensus?.optimistic, true);
    // 8 slots behind: major outage; el_offline: major outage.
    t += 30_000;
    await write(t, 8);
    assert.equal((await snap(t)).c.state, "major_outage");
    t += 30_000;
    await write(t, 0, { elOffline: true });
    assert.equal((await snap(t)).c.state, "major_outage");
    // The Beacon API failing: major outage, the last head it served, the error text stays private.
    t += 30_000;
    await write(t, 0, { ok: false, headSlot: null, slotsBehind: null, error: "connect ECONNREFUSED 10.1.2.3:5052" });
    const failing = await snap(t);
    assert.equal(failing.c.state, "major_outage");
    assert.equal(failing.c.consensus?.apiOk, false);
    assert.equal(failing.json.includes("10.1.2.3"), false, "the Beacon API address stays private");
    assert.equal(failing.json.includes("ECONNREFUSED"), false);
    // Healthy again, then no reading for 10 minutes: no data.
    t += 30_000;
    await write(t, 1);
    assert.equal((await snap(t)).c.state, "operational");
    assert.equal((await snap(t + 10 * 60_000 + 1)).c.state, "unknown");

    // The worker's precompute writes the consensus client's finished days apart from the node's own.
    await db.pool.query(`DELETE FROM status_uptime_days`);
    const refresh = await refreshStatusUptimeDays({ sql: db.pool }, { now: new Date(t) });
    assert.equal(refresh.refsChecked, 2, "the node and its consensus client are two refs");
    const { rows } = await db.pool.query(
      `SELECT kind::text AS kind, day, measured_minutes, up_minutes, degraded_minutes FROM status_uptime_days
       WHERE ref_id = $1 AND kind = 'consensus_client' ORDER BY day`,
      [node],
    );
    assert.deepEqual(
      rows.map((r) => [new Date(r.day).getTime(), r.measured_minutes, r.up_minutes, r.degraded_minutes]),
      [
        [D1, 1_440, 1_440, 0],
        [D2, 1_440, 1_080, 360],
      ],
    );
    const nodeDays = await db.pool.query(
      `SELECT count(*)::int AS n FROM status_uptime_days WHERE ref_id = $1 AND kind = 'node'`,
      [node],
    );
    assert.equal(nodeDays.rows[0].n, 2, "the node's own days are kept beside them");
    const again = await refreshStatusUptimeDays({ sql: db.pool }, { now: new Date(t) });
    assert.equal(again.daysWritten, 0, "a complete cache is not rewritten");
    // The summary the page serves carries the same days from the cache.
    assert.equal((await snap(t)).c.days.at(-2)?.uptime, 0.75);
  });

  it("cannot list another organization's node or a node without a consensus client", async () => {
    const deps = { prisma: db.prisma, sql: db.pool };
    const theirs = await createNode(OTHER, "their-eth", "ethereum");
    const hive = await createNode(ORG, "hive-1", "hive");
    const page = await createStatusPage(deps, ctx, { slug: "eth-watch-2", title: "Ethereum 2", isPublic: true });
    await assert.rejects(
      createStatusComponent(deps, ctx, { pageId: page.id, fields: { ref: `consensus_client:${theirs}` } }),
      (e: { code?: string }) => e.code === "NOT_FOUND",
    );
    await assert.rejects(
      createStatusComponent(deps, ctx, { pageId: page.id, fields: { ref: `consensus_client:${hive}` } }),
      (e: { code?: string }) => e.code === "VALIDATION",
    );
    await writeBeaconSamples(db.pool, [{ nodeId: theirs, beacon: [reading(Date.now(), 0)] }]);
    const candidates = await listComponentCandidates(deps, ctx);
    assert.equal(
      candidates.consensusClients.some((c) => c.ref.includes(theirs)),
      false,
      "the picker offers only the organization's own",
    );
  });
});
