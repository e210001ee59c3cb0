// The rest of issue 14 for witnesses, through the real database and simnet's Hive API (plain mode):
// the exact missed block from the producer_missed virtual operation (and the range when the node has
// no account-history plugin), a status page listing the witness (public snapshot, uptime days, the
// worker's precompute), the cascade when the witness is removed, and producer_samples retention.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { getStorageMode } from "@rpcpulse/db/migrate";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { createSafeHttpClient } from "@rpcpulse/prober";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { findMissedBlocks } from "../src/producers/find-missed-blocks.js";
import {
  createStatusComponent,
  createStatusPage,
  dayLevel,
  getPublicStatusPage,
  producerDay,
  refreshStatusUptimeDays,
  seedDemoStatusPage,
  seedDemoStatusProducers,
} from "@rpcpulse/services/status";
import { listProducerViews, pollWitnesses, registerProducer, deleteProducer } from "@rpcpulse/services/producers";
import { performStorageMaintenance } from "@rpcpulse/services/platform";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG = "org-producer-components";
const OTHER = "org-producer-components-b";
const DAY_MS = 86_400_000;

describe("producer components and exact misses", () => {
  let db: TestDatabase;
  let sim: Simnet;
  const clock = new ManualClock(Date.now());
  const now = () => new Date(clock.now());
  const ctx: ServiceContext = { userId: "u", organizationId: ORG, organizationSlug: ORG, role: "owner" };
  const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 3_000 });

  before(async () => {
    db = await createTestDatabase();
    sim = await startSimnet(
      {
        seed: "svc-producer-components",
        headPollMs: 20,
        nodes: [
          { name: "full", family: "hive", network: "hive", port: 0 },
          {
            name: "bare",
            family: "hive",
            network: "hive",
            port: 0,
            missingMethods: ["account_history_api.enum_virtual_ops"],
          },
        ],
      },
      { clock },
    );
    for (const id of [ORG, OTHER]) await createTestOrg(db, { id });
    await db.pool.query(
      `INSERT INTO public_endpoints (network_id, api_family, url, name, status)
       SELECT id, 'hive', $1, 'full', 'active' FROM networks WHERE slug = 'hive'`,
      [sim.node("full").url],
    );
  });
  after(async () => {
    await sim?.close();
    await db?.drop();
  });

  /** Poll every 15 s of simulated time for `seconds`. */
  async function pollFor(seconds: number): Promise<void> {
    for (let t = 0; t < seconds; t += 15) {
      clock.advance(15_000);
      await pollWitnesses({ sql: db.pool }, { client, now });
    }
  }

  it("stores the exact missed block, shows it on the card, the status page and its uptime day", async () => {
    const arcange = await registerProducer({ sql: db.pool }, ctx, { network: "hive", account: "arcange" });
    const theirs = await registerProducer(
      { sql: db.pool },
      { ...ctx, organizationId: OTHER, organizationSlug: OTHER },
      { network: "hive", account: "gtg" },
    );
    await pollFor(5 * 60);
    const missed = sim.witnesses("hive").missNextSlot("arcange");
    await pollFor(3 * 60);

    const [card] = await listProducerViews({ sql: db.pool }, ctx, { ids: [arcange.id], now: now() });
    assert.equal(card?.recentMisses.length, 1);
    const miss = card!.recentMisses[0]!;
    assert.deepEqual(miss.blocks, [missed]);
    assert.equal(miss.blocksText, `block #${missed}`);
    assert.ok(miss.fromBlock <= missed && missed <= miss.toBlock);

    const deps = { prisma: db.prisma, sql: db.pool };
    const page = await createStatusPage(deps, ctx, { slug: "witness-watch", title: "Witness", isPublic: true });
    await assert.rejects(
      createStatusComponent(deps, ctx, { pageId: page.id, fields: { ref: `producer:${theirs.id}` } }),
      /Producer not found/,
    );
    const component = await createStatusComponent(deps, ctx, {
      pageId: page.id,
      fields: { ref: `producer:${arcange.id}` },
    });
    await assert.rejects(
      createStatusComponent(deps, ctx, { pageId: page.id, fields: { ref: `producer:${arcange.id}` } }),
      /already lists it/,
    );

    const snapshot = await getPublicStatusPage(deps, { slug: "witness-watch" }, { now: now(), fresh: true });
    const c = snapshot.components.find((x) => x.id === component.id);
    assert.equal(c?.kind, "producer");
    assert.equal(c?.name, "arcange (witness)");
    assert.equal(c?.network, "Hive");
    assert.equal(c?.state, "degraded", "a miss in the last hour");
    assert.equal(c?.producer?.producing, false);
    assert.deepEqual(c?.producer?.recentMisses[0]?.blocks, [missed]);
    assert.equal(c?.producer?.recentMisses[0]?.text, `block #${missed}`);
    assert.equal(JSON.stringify(snapshot).includes(sim.node("full").url), false, "the source URL stays private");
    const today = c!.days.at(-1)!;
    assert.ok(today.uptime !== null && today.uptime < 1, `today ${today.uptime}`);
    assert.notEqual(today.level, "ok", "a day with a miss is never a clean day");

    // An hour later without a new miss the witness is producing again; the miss stays listed for 24 h.
    await pollFor(65 * 60);
    const later = await getPublicStatusPage(deps, { slug: "witness-watch" }, { now: now(), fresh: true });
    const c2 = later.components.find((x) => x.id === component.id);
    assert.equal(c2?.state, "operational");
    assert.equal(c2?.producer?.producing, true);
    assert.equal(c2?.producer?.recentMisses.length, 1);

    // The worker's precompute writes the finished day as a producer row: slots seen, produced, missed.
    const tomorrow = new Date(Math.floor(clock.now() / DAY_MS) * DAY_MS + DAY_MS + 60_000);
    const refresh = await refreshStatusUptimeDays({ sql: db.pool }, { now: tomorrow });
    assert.ok(refresh.daysWritten >= 1);
    const { rows } = await db.pool.query(
      `SELECT kind::text AS kind, measured_minutes, up_minutes, degraded_minutes FROM status_uptime_days
       WHERE ref_id = $1 AND measured_minutes > 0`,
      [arcange.id],
    );
    const slots = rows.reduce((n, r) => n + Number(r.measured_minutes), 0);
    assert.equal(rows[0]?.kind, "producer");
    assert.equal(
      rows.reduce((n, r) => n + Number(r.degraded_minutes), 0),
      1,
    );
    assert.equal(
      rows.reduce((n, r) => n + Number(r.up_minutes), 0),
      slots - 1,
    );

    // Removing the witness removes its component (ON DELETE CASCADE).
    await deleteProducer({ sql: db.pool }, ctx, { id: arcange.id });
    assert.equal(await db.prisma.statusComponent.count({ where: { id: component.id } }), 0);
  });

  it("falls back to the range when no source has the account-history plugin", async () => {
    const head = sim.node("bare").head();
    const missed = sim.witnesses("hive").missNextSlot("blocktrades");
    clock.advance((missed - head + 2) * 3000);
    const q = { chain: "hive" as const, account: "blocktrades", fromBlock: head, toBlock: missed + 1 };
    assert.equal(await findMissedBlocks(client, [sim.node("bare").url], q), null);
    assert.deepEqual(await findMissedBlocks(client, [sim.node("bare").url, sim.node("full").url], q), {
      blocks: [missed],
      source: sim.node("full").url,
    });
    assert.equal(await findMissedBlocks(client, [sim.node("full").url], { ...q, chain: "steem" }), null);
  });

  it("a day with a miss is at least degraded; a clean day stays clean", () => {
    const day = new Date(0);
    const row = (measured: number, up: number, degraded: number) => ({
      refId: "x",
      day,
      measuredMinutes: measured,
      upMinutes: up,
      degradedMinutes: degraded,
    });
    const oneMiss = producerDay(day, row(1_371, 1_370, 1));
    assert.equal(dayLevel(oneMiss.uptime, oneMiss.degradedShare), "minor");
    const clean = producerDay(day, row(1_371, 1_371, 0));
    assert.equal(dayLevel(clean.uptime, clean.degradedShare), "ok");
    assert.equal(producerDay(day, undefined).uptime, null);
  });

  it("demo: the demo status page lists the organization's producers once", async () => {
    const demoOrg = "demo-producers-org";
    await createTestOrg(db, { id: demoOrg });
    await db.prisma.user.create({ data: { id: "demo-owner", name: "Owner", email: "owner@demo.example" } });
    await db.prisma.member.create({ data: { id: "m1", organizationId: demoOrg, userId: "demo-owner", role: "owner" } });
    const demoCtx: ServiceContext = {
      userId: "demo-owner",
      organizationId: demoOrg,
      organizationSlug: demoOrg,
      role: "owner",
    };
    await seedDemoStatusPage({ prisma: db.prisma }, { organizationSlug: demoOrg, endpoints: 0 });
    await registerProducer({ sql: db.pool }, demoCtx, { network: "hive", account: "arcange" });
    const deps = { prisma: db.prisma, sql: db.pool };
    assert.equal(await seedDemoStatusProducers(deps, { organizationSlug: demoOrg }), 1);
    assert.equal(await seedDemoStatusProducers(deps, { organizationSlug: demoOrg }), 0, "idempotent");
    const listed = await db.prisma.statusComponent.findMany({
      where: { page: { slug: "demo" }, kind: "producer" },
      include: { group: true },
    });
    assert.deepEqual(
      listed.map((c) => [c.displayName, c.group?.name]),
      [["@arcange (hive)", "Block producers"]],
    );
  });

  it("plain mode: the maintenance job deletes producer_samples older than 400 days", async () => {
    assert.equal(await getStorageMode(db.pool), "plain");
    const { rows } = await db.pool.query(
      `INSERT INTO producers (organization_id, network_id, kind, account)
       SELECT $1, id, 'witness', 'old-witness' FROM networks WHERE slug = 'hive' RETURNING id::text AS id`,
      [ORG],
    );
    const id = String(rows[0]?.id);
    const at = new Date("2026-06-01T00:00:00Z");
    for (const days of [401, 399]) {
      await db.pool.query(
        `INSERT INTO producer_samples (time, producer_id, total_missed, last_confirmed_block, head_block)
         VALUES ($1, $2, 0, 1, 1)`,
        [new Date(at.getTime() - days * DAY_MS), id],
      );
    }
    const result = await performStorageMaintenance({ sql: db.pool }, { task: "storage", now: at });
    assert.equal(result.mode === "plain" ? result.summary.producerSamplesPruned : -1, 1);
    const left = await db.pool.query(`SELECT count(*)::int AS n FROM producer_samples WHERE producer_id = $1`, [id]);
    assert.equal(left.rows[0]?.n, 1);
  });
});
