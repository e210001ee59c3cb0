/**
 * The worker's status-page uptime precompute against real PostgreSQL: every finished day of every
 * component of a public page lands in status_uptime_days (zero rows for days without data), draft
 * pages and unlisted refs are left alone, a second run writes nothing, a page view afterwards only
 * reads the cache, and each run is bounded.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { insertProbeResults } from "@rpcpulse/db/directory";
import { refreshRollups } from "@rpcpulse/db/platform";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { getComponentUptime, refreshStatusUptimeDays, utcDay, type UptimeRef } from "@rpcpulse/services/status";

const DAY = 86_400_000;
const MINUTE = 60_000;
const ORG = "org-uptime-refresh";
const VANTAGE = "00000000-0000-4000-8000-0000000000c1";

describe("status uptime refresh (PostgreSQL)", () => {
  let db: TestDatabase;
  let deps: { sql: TestDatabase["pool"] };
  const now = new Date();
  const today = utcDay(now);
  const ids: Record<"listed" | "shared" | "unlisted" | "draft" | "ep" | "epDraft", string> = {
    listed: "",
    shared: "",
    unlisted: "",
    draft: "",
    ep: "",
    epDraft: "",
  };
  const pages: Record<"a" | "b" | "draft", string> = { a: "", b: "", draft: "" };

  async function cachedDays(refId: string): Promise<{ day: string; measured: number; computedAt: Date }[]> {
    const { rows } = await db.pool.query<{ day: string; measured: number; computed_at: Date }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, measured_minutes AS measured, computed_at
       FROM status_uptime_days WHERE ref_id = $1 ORDER BY day`,
      [refId],
    );
    return rows.map((r) => ({ day: r.day, measured: r.measured, computedAt: r.computed_at }));
  }

  function expectedDays(createdAt: Date, at = now): string[] {
    const end = utcDay(at).getTime();
    const start = Math.max(end - 89 * DAY, utcDay(createdAt).getTime());
    const out: string[] = [];
    for (let d = start; d < end; d += DAY) out.push(new Date(d).toISOString().slice(0, 10));
    return out;
  }

  async function listedRefs(): Promise<UptimeRef[]> {
    const nodes = await db.prisma.node.findMany({ where: { id: { in: [ids.listed, ids.shared] } } });
    const endpoint = await db.prisma.publicEndpoint.findUniqueOrThrow({ where: { id: ids.ep } });
    return [
      ...nodes.map((n) => ({ kind: "node" as const, refId: n.id, createdAt: n.createdAt })),
      { kind: "endpoint", refId: endpoint.id, createdAt: endpoint.createdAt },
    ];
  }

  async function addComponent(pageId: string, kind: "node" | "endpoint", refId: string) {
    await db.prisma.statusComponent.create({
      data: {
        pageId,
        kind,
        nodeId: kind === "node" ? refId : null,
        endpointId: kind === "endpoint" ? refId : null,
        displayName: `c-${refId.slice(0, 8)}`,
      },
    });
  }

  before(async () => {
    db = await createTestDatabase();
    deps = { sql: db.pool };
    await createTestOrg(db, { id: ORG, name: "Uptime" });
    const network = await db.prisma.network.findUniqueOrThrow({ where: { slug: "hive" } });
    const ages = { listed: 5, shared: 2, unlisted: 4, draft: 3 } as const;
    for (const name of Object.keys(ages) as (keyof typeof ages)[]) {
      ids[name] = (
        await createTestNode(db, { organizationId: ORG, name, createdAt: new Date(now.getTime() - ages[name] * DAY) })
      ).id;
    }
    for (const [key, url, ageDays] of [
      ["ep", "https://api.listed.example", 120],
      ["epDraft", "https://api.draft.example", 10],
    ] as const) {
      ids[key] = (
        await db.prisma.publicEndpoint.create({
          data: {
            networkId: network.id,
            apiFamily: "hive",
            url,
            name: key,
            status: "active",
            createdAt: new Date(now.getTime() - ageDays * DAY),
          },
        })
      ).id;
    }
    await db.prisma.vantagePoint.create({ data: { id: VANTAGE, name: "vp-eu", region: "eu", kind: "server" } });
    for (const [key, slug, isPublic] of [
      ["a", "uptime-a", true],
      ["b", "uptime-b", true],
      ["draft", "uptime-draft", false],
    ] as const) {
      pages[key] = (
        await db.prisma.statusPage.create({ data: { organizationId: ORG, slug, title: slug, isPublic } })
      ).id;
    }
    await addComponent(pages.a, "node", ids.listed);
    await addComponent(pages.a, "node", ids.shared);
    await addComponent(pages.a, "endpoint", ids.ep);
    await addComponent(pages.b, "node", ids.shared);
    await addComponent(pages.draft, "node", ids.draft);
    await addComponent(pages.draft, "endpoint", ids.epDraft);

    // Data: the listed node reported 60 minutes two days ago, the shared node 30 minutes yesterday,
    // the endpoint was probed (ok) 20 minutes three days ago; the unlisted and draft nodes reported too.
    const samples = [];
    for (const [node, daysAgo, minutes] of [
      [ids.listed, 2, 60],
      [ids.shared, 1, 30],
      [ids.unlisted, 1, 30],
      [ids.draft, 1, 30],
    ] as const) {
      const start = today.getTime() - daysAgo * DAY + 3_600_000;
      for (let m = 0; m < minutes; m++)
        samples.push({ time: new Date(start + m * MINUTE), nodeId: node, lagBlocks: 0, headTime: new Date(start) });
    }
    await insertNodeSamples(db.pool, samples);
    const probeStart = today.getTime() - 3 * DAY + 7_200_000;
    await insertProbeResults(
      db.pool,
      Array.from({ length: 20 }, (_, m) => ({
        time: new Date(probeStart + m * MINUTE),
        endpointId: ids.ep,
        vantagePointId: VANTAGE,
        ok: true,
        totalMs: 80,
      })),
    );
    await refreshRollups(db.pool, { from: new Date(today.getTime() - 4 * DAY), to: now });
  });

  after(async () => {
    await db.drop();
  });

  test("fills every finished day of each listed ref from its creation; drafts and unlisted refs untouched", async () => {
    const report = await refreshStatusUptimeDays(deps, { now });
    const refs = await listedRefs();
    const expected = new Map(refs.map((r) => [r.refId, expectedDays(r.createdAt)]));
    assert.deepEqual(expected.get(ids.listed)?.length, 5);
    assert.deepEqual(expected.get(ids.shared)?.length, 2);
    assert.deepEqual(expected.get(ids.ep)?.length, 89, "created 120 days ago: the 89 finished days of the window");
    assert.deepEqual(report, { refsChecked: 3, refsFilled: 3, refsPending: 0, daysWritten: 96 });
    for (const ref of refs) {
      const rows = await cachedDays(ref.refId);
      assert.deepEqual(
        rows.map((r) => r.day),
        expected.get(ref.refId),
        `${ref.kind} ${ref.refId}: every finished day`,
      );
    }
    const measured = async (refId: string, daysAgo: number) =>
      (await cachedDays(refId)).find(
        (r) => r.day === new Date(today.getTime() - daysAgo * DAY).toISOString().slice(0, 10),
      )?.measured;
    assert.equal(await measured(ids.listed, 2), 60);
    assert.equal(await measured(ids.listed, 1), 0, "a day without data is a zero row");
    assert.equal(await measured(ids.shared, 1), 30);
    assert.equal(await measured(ids.ep, 3), 20);
    assert.equal(await measured(ids.ep, 40), 0);
    for (const refId of [ids.unlisted, ids.draft, ids.epDraft]) {
      assert.deepEqual(await cachedDays(refId), [], "not on a public page: not computed");
    }
  });

  test("a second run writes nothing, and a page view afterwards only reads the cache", async () => {
    const refs = await listedRefs();
    const before = await Promise.all(refs.map((r) => cachedDays(r.refId)));
    assert.deepEqual(await refreshStatusUptimeDays(deps, { now }), {
      refsChecked: 3,
      refsFilled: 0,
      refsPending: 0,
      daysWritten: 0,
    });
    const viewed = await getComponentUptime(deps, { refs, now });
    // getComponentUptime writes every finished day it computes: unchanged rows = nothing computed.
    assert.deepEqual(await Promise.all(refs.map((r) => cachedDays(r.refId))), before);

    // The same answer as computing inline from the rollups with an empty cache.
    await db.pool.query("DELETE FROM status_uptime_days");
    const inline = await getComponentUptime(deps, { refs, now });
    assert.deepEqual(viewed, inline);
    const recomputed = await Promise.all(refs.map((r) => cachedDays(r.refId)));
    assert.deepEqual(
      recomputed.map((rows) => rows.map((r) => [r.day, r.measured])),
      before.map((rows) => rows.map((r) => [r.day, r.measured])),
    );
  });

  test("bounded runs: at most maxRefs per run in batches, the rest the next run", async () => {
    await db.pool.query("DELETE FROM status_uptime_days");
    const first = await refreshStatusUptimeDays(deps, { now, maxRefs: 2, batchSize: 1 });
    assert.deepEqual([first.refsChecked, first.refsFilled, first.refsPending], [3, 2, 1]);
    const second = await refreshStatusUptimeDays(deps, { now, maxRefs: 2, batchSize: 1 });
    assert.deepEqual([second.refsFilled, second.refsPending], [1, 0]);
    assert.equal(first.daysWritten + second.daysWritten, 96);
  });

  test("a component added to a public page, a page published, and a new UTC day are picked up", async () => {
    await addComponent(pages.b, "node", ids.unlisted);
    const added = await refreshStatusUptimeDays(deps, { now });
    assert.deepEqual(added, { refsChecked: 4, refsFilled: 1, refsPending: 0, daysWritten: 4 });
    assert.equal((await cachedDays(ids.unlisted)).find((r) => r.measured > 0)?.measured, 30);

    await db.prisma.statusPage.update({ where: { id: pages.draft }, data: { isPublic: true } });
    const published = await refreshStatusUptimeDays(deps, { now });
    assert.deepEqual(published, { refsChecked: 6, refsFilled: 2, refsPending: 0, daysWritten: 3 + 10 });

    // After UTC midnight: one new finished day (today) per ref.
    const tomorrow = new Date(today.getTime() + DAY + 60_000);
    const nextDay = await refreshStatusUptimeDays(deps, { now: tomorrow });
    assert.deepEqual(nextDay, { refsChecked: 6, refsFilled: 6, refsPending: 0, daysWritten: 6 });
    const epDays = (await cachedDays(ids.ep)).map((r) => r.day);
    assert.equal(epDays.length, 90, "the 89 earlier days stay cached, today's is added");
    assert.equal(epDays.at(-1), today.toISOString().slice(0, 10));
  });
});
