import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "../src/testing.js";

describe("createTestOrg / createTestNode (PostgreSQL)", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.drop();
  });

  test("an organization: random id by default, name and slug follow it unless given", async () => {
    const a = await createTestOrg(db);
    assert.match(a.id, /^org_[0-9a-f]{12}$/);
    assert.deepEqual(a, { id: a.id, name: a.id, slug: a.id });
    const b = await createTestOrg(db.pool, { id: "org-b", name: "Org B", slug: "b" });
    const row = await db.prisma.organization.findUniqueOrThrow({ where: { id: "org-b" } });
    assert.deepEqual([row.name, row.slug, b.slug], ["Org B", "b", "b"]);
  });

  test("a node: on the hive network as hived by default, or as told; an unknown network fails", async () => {
    const org = await createTestOrg(db);
    const plain = await createTestNode(db, { organizationId: org.id });
    const hive = await db.prisma.network.findUniqueOrThrow({ where: { slug: "hive" } });
    const row = await db.prisma.node.findUniqueOrThrow({ where: { id: plain.id } });
    assert.deepEqual(
      [
        row.networkId,
        row.apiFamily,
        row.clientName,
        row.name,
        row.localRpcUrl,
        row.publicUrl,
        row.lastSeenAt,
        row.agentVersion,
      ],
      [hive.id, "hive", "hived", plain.name, "http://127.0.0.1:8091", null, null, null],
    );
    assert.equal(plain.networkId, hive.id);

    const seen = new Date("2026-01-02T03:04:05.006Z");
    const created = new Date("2025-12-01T00:00:00.000Z");
    const told = await createTestNode(db.sql, {
      id: "00000000-0000-4000-8000-00000000abcd",
      organizationId: org.id,
      network: "polkadot",
      apiFamily: "substrate",
      clientName: "polkadot",
      clientVersion: "1.0.0",
      name: "dot",
      localRpcUrl: "http://127.0.0.1:9944",
      publicUrl: "https://rpc.example.test/",
      region: "eu-central",
      lastSeenAt: seen,
      agentVersion: "0.1.0",
      createdAt: created,
    });
    const dot = await db.prisma.node.findUniqueOrThrow({ where: { id: told.id }, include: { network: true } });
    assert.equal(told.id, "00000000-0000-4000-8000-00000000abcd");
    assert.deepEqual(
      [dot.network.slug, dot.apiFamily, dot.clientName, dot.clientVersion, dot.publicUrl, dot.region],
      ["polkadot", "substrate", "polkadot", "1.0.0", "https://rpc.example.test/", "eu-central"],
    );
    assert.deepEqual([dot.lastSeenAt, dot.createdAt, dot.agentVersion], [seen, created, "0.1.0"]);
    const byId = await createTestNode(db, { organizationId: org.id, networkId: hive.id, name: "by-id" });
    assert.equal(byId.networkId, hive.id);

    await assert.rejects(
      createTestNode(db, { organizationId: org.id, network: "no-such-net" }),
      /no network no-such-net/,
    );
  });
});
