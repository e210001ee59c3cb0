/**
 * Editing status pages in place against real PostgreSQL: renaming and reordering groups (positions
 * stay unique and contiguous) and editing maintenance windows (validation, roles, tenant scope, and
 * the cached public snapshot showing the change at once).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "@rpcpulse/config";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import {
  createStatusComponent,
  createStatusGroup,
  createStatusPage,
  updateMaintenance,
  updateStatusComponent,
  updateStatusGroup,
  getPublicStatusPage,
  getStatusPageForAdmin,
  listMaintenance,
  deleteStatusGroup,
  createMaintenance,
} from "@rpcpulse/services/status";
import { enrollNode } from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG_A = "org-edit-a";
const ORG_B = "org-edit-b";
const HOUR = 3_600_000;
const ctxOf = (organizationId: string, role: ServiceContext["role"] = "owner"): ServiceContext => ({
  userId: `user-${organizationId}`,
  organizationId,
  organizationSlug: organizationId,
  role,
});

async function rejects(promise: Promise<unknown>, code: string, message?: RegExp) {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(isAppError(e), `expected an AppError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

const node = (name: string) => ({
  network: "hive",
  apiFamily: "hive",
  clientName: "hived",
  name,
  localRpcUrl: `http://10.9.9.${name.length}:8091`,
});

describe("status pages edited in place (PostgreSQL)", () => {
  let db: TestDatabase;
  let deps: { prisma: TestDatabase["prisma"]; sql: TestDatabase["pool"] };
  const a = ctxOf(ORG_A);
  const b = ctxOf(ORG_B);
  const ids: Record<string, string> = {};

  before(async () => {
    db = await createTestDatabase();
    deps = { prisma: db.prisma, sql: db.pool };
    for (const id of [ORG_A, ORG_B]) await createTestOrg(db, { id, name: `Name of ${id}` });
    ids.page = (await createStatusPage(deps, a, { slug: "edit-alpha", title: "Alpha", isPublic: true })).id;
    ids.pageB = (await createStatusPage(deps, b, { slug: "edit-bravo", title: "Bravo", isPublic: true })).id;
    for (const [key, ctx, page, name] of [
      ["c1", a, ids.page, "alpha-one"],
      ["c2", a, ids.page, "alpha-two"],
      ["cB", b, ids.pageB, "bravo-one"],
    ] as const) {
      const nodeId = (await enrollNode(deps, ctx, node(name))).node.id;
      ids[key] = (await createStatusComponent(deps, ctx, { pageId: page, fields: { ref: `node:${nodeId}` } })).id;
    }
  });

  after(async () => {
    await db.drop();
  });

  async function groupOrder(): Promise<{ name: string; position: number }[]> {
    const page = await getStatusPageForAdmin(deps, a, { pageId: ids.page! });
    return page.groups.map((g) => ({ name: g.name, position: g.position }));
  }

  test("groups: appended last, renamed and moved in place with contiguous positions", async () => {
    for (const name of ["Witnesses", "Seeds", "APIs"]) {
      ids[name] = (await createStatusGroup(deps, a, { pageId: ids.page!, fields: { name, position: "" } })).id;
    }
    assert.deepEqual(await groupOrder(), [
      { name: "Witnesses", position: 0 },
      { name: "Seeds", position: 1 },
      { name: "APIs", position: 2 },
    ]);
    for (const [componentId, displayName, groupId] of [
      [ids.c1!, "alpha-one", ids.Seeds!],
      [ids.c2!, "alpha-two", ids.APIs!],
    ] as const) {
      await updateStatusComponent(deps, a, { componentId, fields: { displayName, groupId } });
    }
    const first = await getPublicStatusPage(deps, { slug: "edit-alpha" });
    assert.deepEqual(
      first.groups.map((g) => g.name),
      ["Seeds", "APIs"],
      "the public page shows non-empty groups in order",
    );

    await updateStatusGroup(deps, a, { groupId: ids.Seeds!, fields: { name: "  Seed nodes " } });
    await updateStatusGroup(deps, a, { groupId: ids.APIs!, fields: { move: "up" } });
    assert.deepEqual(await groupOrder(), [
      { name: "Witnesses", position: 0 },
      { name: "APIs", position: 1 },
      { name: "Seed nodes", position: 2 },
    ]);
    // Moving the first group up (or the last down) changes nothing.
    await updateStatusGroup(deps, a, { groupId: ids.Witnesses!, fields: { move: "up" } });
    await updateStatusGroup(deps, a, { groupId: ids.Seeds!, fields: { move: "down" } });
    await updateStatusGroup(deps, a, { groupId: ids.Witnesses!, fields: { move: "down" } });
    assert.deepEqual(await groupOrder(), [
      { name: "APIs", position: 0 },
      { name: "Witnesses", position: 1 },
      { name: "Seed nodes", position: 2 },
    ]);
    // A group added with an explicit tied position is renumbered by the next move.
    ids.Tied = (await createStatusGroup(deps, a, { pageId: ids.page!, fields: { name: "Tied", position: 1 } })).id;
    await updateStatusGroup(deps, a, { groupId: ids.Tied!, fields: { move: "down" } });
    const order = await groupOrder();
    assert.deepEqual(
      order.map((g) => g.position),
      [0, 1, 2, 3],
    );
    assert.deepEqual(
      order.map((g) => g.name),
      ["APIs", "Witnesses", "Tied", "Seed nodes"],
    );
    // Concurrent moves are serialised per page: positions stay unique.
    await Promise.all(
      [ids.APIs!, ids.Tied!, ids.Seeds!, ids.Witnesses!].map((groupId, i) =>
        updateStatusGroup(deps, a, { groupId, fields: { move: i % 2 ? "up" : "down" } }),
      ),
    );
    assert.deepEqual(
      (await groupOrder()).map((g) => g.position),
      [0, 1, 2, 3],
    );

    // The cached public snapshot shows the rename at once.
    const later = await getPublicStatusPage(deps, { slug: "edit-alpha" });
    assert.deepEqual(
      later.groups.map((g) => g.name),
      (await groupOrder()).map((g) => g.name).filter((name) => name === "Seed nodes" || name === "APIs"),
    );

    // Removing a group from the middle closes the gap.
    const doomed = (await createStatusGroup(deps, a, { pageId: ids.page!, fields: { name: "Doomed" } })).id;
    for (const move of ["up", "up"]) await updateStatusGroup(deps, a, { groupId: doomed, fields: { move } });
    assert.equal((await groupOrder())[2]?.name, "Doomed");
    await deleteStatusGroup(deps, a, { groupId: doomed });
    assert.deepEqual(
      (await groupOrder()).map((g) => g.position),
      [0, 1, 2, 3],
    );

    await rejects(updateStatusGroup(deps, a, { groupId: ids.Seeds!, fields: { name: " " } }), "VALIDATION", /name/);
    await rejects(updateStatusGroup(deps, a, { groupId: ids.Seeds!, fields: {} }), "VALIDATION", /name|move/);
    await rejects(updateStatusGroup(deps, a, { groupId: ids.Seeds!, fields: { move: "sideways" } }), "VALIDATION");
    await rejects(
      updateStatusGroup(deps, ctxOf(ORG_A, "viewer"), { groupId: ids.Seeds!, fields: { name: "x" } }),
      "FORBIDDEN",
    );
    await rejects(updateStatusGroup(deps, b, { groupId: ids.Seeds!, fields: { name: "stolen" } }), "NOT_FOUND");
    await rejects(updateStatusGroup(deps, b, { groupId: ids.Seeds!, fields: { move: "up" } }), "NOT_FOUND");
    await rejects(updateStatusGroup(deps, a, { groupId: "not-a-uuid", fields: { name: "x" } }), "NOT_FOUND");
    assert.ok(
      (await groupOrder()).some((g) => g.name === "Seed nodes"),
      "org B changed nothing",
    );
  });

  test("maintenance: edited in place, validated, admin only, tenant scoped, shown on the page", async () => {
    const now = Date.now();
    const window = (startsAt: number, endsAt: number, extra: Record<string, unknown> = {}) => ({
      title: "Upgrade",
      body: "Short *restart*.",
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(endsAt).toISOString(),
      componentIds: [ids.c1!],
      ...extra,
    });
    ids.mw = (
      await createMaintenance(deps, a, { pageId: ids.page!, fields: window(now + 2 * HOUR, now + 3 * HOUR) })
    ).id;
    ids.mwB = (
      await createMaintenance(deps, b, {
        pageId: ids.pageB!,
        fields: window(now + 2 * HOUR, now + 3 * HOUR, { componentIds: [ids.cB!] }),
      })
    ).id;
    const first = await getPublicStatusPage(deps, { slug: "edit-alpha" });
    assert.equal(first.maintenance[0]?.title, "Upgrade");
    assert.equal(first.maintenance[0]?.active, false);

    await updateMaintenance(deps, a, {
      windowId: ids.mw!,
      fields: window(now - 60_000, now + HOUR, {
        title: "Upgrade to 1.28",
        body: "Now **running** <script>alert(1)</script>",
        componentIds: [ids.c1!, ids.c2!],
      }),
    });
    const [row] = await listMaintenance(deps, a, { pageId: ids.page! });
    assert.equal(row?.title, "Upgrade to 1.28");
    assert.deepEqual(new Set(row?.componentIds), new Set([ids.c1, ids.c2]));
    assert.equal(row?.startsAt.getTime(), now - 60_000);
    // The cached snapshot is invalidated: the edit shows at once, markdown re-rendered and sanitised.
    const later = await getPublicStatusPage(deps, { slug: "edit-alpha" });
    const shown = later.maintenance.find((m) => m.id === ids.mw);
    assert.equal(shown?.title, "Upgrade to 1.28");
    assert.equal(shown?.active, true);
    assert.match(shown?.html ?? "", /<strong>running<\/strong>/);
    assert.doesNotMatch(shown?.html ?? "", /<script/);
    assert.equal(later.components.find((c) => c.id === ids.c2)?.state, "maintenance");

    const edit = (fields: Record<string, unknown>, ctx = a, windowId = ids.mw!) =>
      updateMaintenance(deps, ctx, { windowId, fields });
    await rejects(edit(window(now + HOUR, now)), "VALIDATION", /The end must be after the start/);
    await rejects(edit(window(now, now + 31 * 24 * HOUR)), "VALIDATION", /At most 30 days/);
    await rejects(edit(window(now, now + HOUR, { title: "  " })), "VALIDATION", /A title is needed/);
    await rejects(edit(window(now, now + HOUR, { startsAt: "" })), "VALIDATION", /A start time is needed/);
    await rejects(edit(window(now, now + HOUR, { componentIds: [] })), "VALIDATION", /Pick components of this page/);
    await rejects(edit(window(now, now + HOUR, { componentIds: [ids.cB!] })), "VALIDATION", /Pick components/);
    await rejects(edit(window(now, now + HOUR), ctxOf(ORG_A, "viewer")), "FORBIDDEN");
    await rejects(edit(window(now, now + HOUR), a, ids.mwB!), "NOT_FOUND", /Maintenance window not found/);
    await rejects(edit(window(now, now + HOUR, { componentIds: [ids.c1!] }), b, ids.mw!), "NOT_FOUND");
    await rejects(edit(window(now, now + HOUR), a, "not-a-uuid"), "NOT_FOUND");
    await rejects(edit(window(now, now + HOUR), a, "00000000-0000-4000-8000-000000000000"), "NOT_FOUND");

    // Nothing above changed either window.
    const [still] = await listMaintenance(deps, a, { pageId: ids.page! });
    assert.equal(still?.title, "Upgrade to 1.28");
    assert.equal(still?.componentIds.length, 2);
    const [bravo] = await listMaintenance(deps, b, { pageId: ids.pageB! });
    assert.equal(bravo?.title, "Upgrade");
    assert.deepEqual(bravo?.componentIds, [ids.cB]);
  });
});
