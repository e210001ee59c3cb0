// Witness reads against simnet through the SSRF-safe client: the organization's own node first (here
// failing with 502s), then the directory; an account that is no witness; every source down keeps the
// last good reading and records the error; register/list/remove as the web calls them.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { createSafeHttpClient } from "@rpcpulse/prober";
import { startSimnet, type Simnet } from "@rpcpulse/simnet";
import { listProducerViews, pollWitnesses, registerProducer, deleteProducer } from "@rpcpulse/services/producers";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG = "org-producers-svc";

describe("pollWitnesses against simnet", () => {
  let db: TestDatabase;
  let sim: Simnet;
  const ctx: ServiceContext = { userId: "u", organizationId: ORG, organizationSlug: ORG, role: "owner" };
  const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 3_000 });

  before(async () => {
    db = await createTestDatabase();
    sim = await startSimnet({
      seed: "svc-producers",
      nodes: [
        { name: "own-bad", family: "hive", network: "hive", port: 0, errorRate: 1, errorKind: "http-502" },
        { name: "dir-good", family: "hive", network: "hive", port: 0 },
      ],
      witnesses: [{ network: "hive", account: "arcange", feedStaleHours: 30, runningVersion: "1.27.5" }],
    });
    await createTestOrg(db, { id: ORG, name: "P" });
    const own = sim.node("own-bad").url;
    await createTestNode(db, { organizationId: ORG, name: "own", localRpcUrl: own, publicUrl: own });
    await db.pool.query(
      `INSERT INTO public_endpoints (network_id, api_family, url, name, status)
       SELECT id, 'hive', $1, 'good', 'active' FROM networks WHERE slug = 'hive'`,
      [sim.node("dir-good").url],
    );
  });
  after(async () => {
    await sim?.close();
    await db?.drop();
  });

  it("falls back past a failing own node, explains the trouble, keeps the last reading when all fail", async () => {
    const arcange = await registerProducer({ sql: db.pool }, ctx, { network: "hive", account: "ArCange " });
    assert.equal(arcange.account, "arcange", "trimmed and lower-cased");
    await registerProducer({ sql: db.pool }, ctx, { network: "hive", account: "not-a-witness" });
    await assert.rejects(
      registerProducer({ sql: db.pool }, { ...ctx, role: "viewer" }, { network: "hive", account: "gtg" }),
      /admin/,
    );

    const report = await pollWitnesses({ sql: db.pool }, { client });
    assert.deepEqual([report.networks, report.producers, report.read, report.failed], [1, 2, 1, 1]);
    const views = await listProducerViews({ sql: db.pool }, ctx);
    const a = views.find((v) => v.account === "arcange")!;
    assert.equal(a.source, sim.node("dir-good").url);
    assert.ok(a.rank !== null && a.rank >= 1 && a.rank <= 21, `rank ${a.rank}`);
    assert.equal(a.inSchedule, true);
    assert.equal(a.state, "trouble");
    assert.ok(
      a.problems.some((p) => /feed is 3\d h old/.test(p)),
      a.problems.join(" | "),
    );
    assert.ok(
      a.problems.some((p) => /1\.27\.5, behind the majority 1\.27\.11/.test(p)),
      a.problems.join(" | "),
    );
    const missing = views.find((v) => v.account === "not-a-witness")!;
    assert.equal(missing.state, "unknown");

    sim.node("dir-good").setErrorRate(1, "http-503");
    const down = await pollWitnesses({ sql: db.pool }, { client });
    assert.equal(down.read, 0);
    const after = (await listProducerViews({ sql: db.pool }, ctx)).find((v) => v.account === "arcange")!;
    assert.equal(after.totalMissed, a.totalMissed, "the last good reading stays");
    assert.match(after.error ?? "", /503/);

    await deleteProducer({ sql: db.pool }, ctx, { id: arcange.id });
    await assert.rejects(deleteProducer({ sql: db.pool }, ctx, { id: arcange.id }), /not found/i);
  });
});
