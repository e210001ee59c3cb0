/**
 * Finality lag on a public status page (real PostgreSQL): the node component carries its current
 * finality lag and 24 hourly values from the 1-hour rollups, and nothing that names the node.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { refreshRollups } from "@rpcpulse/db/platform";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { createStatusComponent, createStatusPage, getPublicStatusPage } from "@rpcpulse/services/status";
import { enrollNode } from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG = "org-status-finality";
const ctx: ServiceContext = { userId: "u", organizationId: ORG, organizationSlug: ORG, role: "owner" };
const HOUR = 3_600_000;

describe("status page: finality lag of node components", () => {
  let db: TestDatabase;
  let nodeId = "";
  before(async () => {
    db = await createTestDatabase();
    await createTestOrg(db, { id: ORG, name: "Org" });
    // A variable, not a literal: enrollNode takes { prisma } or (with token revocation) { prisma, sql }.
    const deps = { prisma: db.prisma, sql: db.pool };
    const enrolled = await enrollNode(deps, ctx, {
      network: "ethereum-mainnet",
      apiFamily: "ethereum",
      clientName: "geth",
      name: "secret-node-name",
      localRpcUrl: "http://10.9.8.7:8545/private",
    });
    nodeId = enrolled.node.id;
    const page = await createStatusPage({ prisma: db.prisma }, ctx, { slug: "finality", title: "F", isPublic: true });
    await createStatusComponent({ prisma: db.prisma }, ctx, {
      pageId: page.id,
      fields: { ref: `node:${nodeId}`, displayName: "Execution API" },
    });
  });
  after(async () => db?.drop());

  test("current finality lag and the hourly series; no node id or name in the snapshot", async () => {
    const now = new Date();
    const lastHour = Math.floor(now.getTime() / HOUR) * HOUR - HOUR;
    // The previous full hour: Ethereum's finalized checkpoint 64 then 70 blocks behind; now 66.
    await insertNodeSamples(db.pool, [
      { time: new Date(lastHour + 60_000), nodeId, headBlock: 20_000_000, finalizedBlock: 19_999_936 },
      { time: new Date(lastHour + 120_000), nodeId, headBlock: 20_000_010, finalizedBlock: 19_999_940 },
      { time: new Date(now.getTime() - 2_000), nodeId, headBlock: 20_000_300, finalizedBlock: 20_000_234 },
    ]);
    await refreshRollups(db.pool, { from: new Date(lastHour), to: now });
    const snap = await getPublicStatusPage({ prisma: db.prisma, sql: db.pool }, { slug: "finality" }, { fresh: true });
    const [c] = snap.components;
    assert.equal(c?.finalityLagBlocks, 66);
    assert.equal(c?.finalityLag.length, 24);
    assert.equal(c?.finalityLag[snap.hours.indexOf(lastHour / 1000)], 70);
    const json = JSON.stringify(snap);
    assert.ok(!json.includes(nodeId) && !json.includes("secret-node-name") && !json.includes("10.9.8.7"));
  });
});
