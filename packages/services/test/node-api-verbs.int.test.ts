// The node verbs the org API added for automation, on a real database: PATCH-style rename and move
// between networks keeping unnamed fields, its validation, and revoking a token only under its own node.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AppError } from "@rpcpulse/config";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import {
  createAgentToken,
  enrollNode,
  listAgentTokens,
  patchNode,
  revokeAgentTokenOfNode,
} from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";

async function rejectsWith(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (e: unknown) => e instanceof AppError && e.code === code);
}

describe("node verbs of the org API (real PostgreSQL)", () => {
  let db: TestDatabase;
  let deps: { prisma: TestDatabase["prisma"]; sql: TestDatabase["pool"] };
  let ctx: ServiceContext;
  before(async () => {
    db = await createTestDatabase();
    db.pool.on("error", () => undefined);
    deps = { prisma: db.prisma, sql: db.pool };
    const org = await createTestOrg(db);
    ctx = { userId: "api-key:x", organizationId: org.id, organizationSlug: org.slug, role: "admin", apiKeyId: "x" };
  });
  after(async () => {
    await db.drop();
  });

  const input = (name: string) => ({
    name,
    network: "hive",
    apiFamily: "hive",
    clientName: "hived",
    clientVersion: "1.27.11",
    localRpcUrl: "http://127.0.0.1:8091",
    region: "eu",
  });

  it("renames and moves to another network, keeping every field not named", async () => {
    const { node } = await enrollNode(deps, ctx, input("n1"));
    const moved = await patchNode(deps, ctx, { nodeId: node.id, fields: { name: "n1-steem", network: "steem" } });
    assert.equal(moved.name, "n1-steem");
    assert.equal(moved.networkSlug, "steem");
    assert.equal(moved.clientVersion, "1.27.11");
    assert.equal(moved.region, "eu");
    assert.equal(moved.localRpcUrl, "http://127.0.0.1:8091");
    const cleared = await patchNode(deps, ctx, { nodeId: node.id, fields: { region: null } });
    assert.equal(cleared.region, null);
  });

  it("refuses unknown fields, an empty patch, a family the chain does not speak, a taken name, other orgs' nodes", async () => {
    const { node } = await enrollNode(deps, ctx, input("n2"));
    await enrollNode(deps, ctx, input("n3"));
    const invalid = (e: unknown) => e instanceof Error && e.name === "ZodError";
    await assert.rejects(patchNode(deps, ctx, { nodeId: node.id, fields: { organizationId: "other" } }), invalid);
    await rejectsWith(patchNode(deps, ctx, { nodeId: node.id, fields: {} }), "VALIDATION");
    await rejectsWith(patchNode(deps, ctx, { nodeId: node.id, fields: { apiFamily: "ethereum" } }), "VALIDATION");
    await rejectsWith(patchNode(deps, ctx, { nodeId: node.id, fields: { name: "n3" } }), "CONFLICT");
    const other = { ...ctx, organizationId: "org_nope", organizationSlug: "org_nope" };
    await rejectsWith(patchNode(deps, other, { nodeId: node.id, fields: { name: "x" } }), "NOT_FOUND");
    await rejectsWith(
      patchNode(deps, { ...ctx, role: "viewer" }, { nodeId: node.id, fields: { name: "x" } }),
      "FORBIDDEN",
    );
  });

  it("revokes a token only under its own node", async () => {
    const a = await enrollNode(deps, ctx, input("n4"));
    const b = await enrollNode(deps, ctx, input("n5"));
    const extra = await createAgentToken(deps, ctx, { nodeId: a.node.id });
    await rejectsWith(revokeAgentTokenOfNode(deps, ctx, { nodeId: b.node.id, tokenId: extra.record.id }), "NOT_FOUND");
    const revoked = await revokeAgentTokenOfNode(deps, ctx, { nodeId: a.node.id, tokenId: extra.record.id });
    assert.ok(revoked.revokedAt);
    await rejectsWith(revokeAgentTokenOfNode(deps, ctx, { nodeId: a.node.id, tokenId: extra.record.id }), "NOT_FOUND");
    const live = (await listAgentTokens(deps, ctx, { nodeId: a.node.id })).filter((t) => t.revokedAt === null);
    assert.deepEqual(
      live.map((t) => t.id),
      [a.issued.record.id],
    );
  });
});
