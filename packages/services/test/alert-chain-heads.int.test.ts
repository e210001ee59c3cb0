/**
 * The finality_stalled and public_head_behind rule types on real PostgreSQL: rules are created
 * through the service (the enum values exist), and one evaluation round's inputs measure stored
 * samples and public-URL checks.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertNodeSamples, recordPublicHeadChecks } from "@rpcpulse/db/fleet";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { collectAlertTargets } from "../src/alerting/collect-alert-inputs.js";
import { createAlertRule, describeCondition, resolveThresholds } from "@rpcpulse/services/alerting";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG = "org-chain-head-alerts";
const ctx: ServiceContext = { userId: "u", organizationId: ORG, organizationSlug: ORG, role: "owner" };
const NODES = {
  grandpa: "77777777-7777-4777-8777-7777777777a1",
  stuck: "77777777-7777-4777-8777-7777777777a2",
  healthy: "77777777-7777-4777-8777-7777777777a3",
};
const now = new Date();
const ago = (s: number) => new Date(now.getTime() - s * 1000);

describe("alert rules over finality and public heads", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    await createTestOrg(db, { id: ORG, name: "Org" });
    for (const [name, id] of Object.entries(NODES)) {
      await createTestNode(db, {
        id,
        organizationId: ORG,
        network: "polkadot",
        apiFamily: "substrate",
        clientName: "polkadot",
        name,
        localRpcUrl: "http://127.0.0.1:9944",
        publicUrl: "https://rpc.example.test/",
      });
    }
    // 30 minutes, a sample every 30 s (6 s blocks: +5 per sample).
    const samples = Array.from({ length: 61 }, (_, i) => i);
    await insertNodeSamples(db.pool, [
      // GRANDPA stalled 20 minutes ago (sample 20) while block production went on.
      ...samples.map((i) => ({
        time: ago((60 - i) * 30),
        nodeId: NODES.grandpa,
        headBlock: 10_000 + 5 * i,
        finalizedBlock: 10_000 + 5 * Math.min(i, 20) - 2,
      })),
      // Head and finality stuck together: the node as a whole is stuck (head_age's business).
      ...samples.map((i) => ({ time: ago((60 - i) * 30), nodeId: NODES.stuck, headBlock: 500, finalizedBlock: 498 })),
      ...samples.map((i) => ({
        time: ago((60 - i) * 30),
        nodeId: NODES.healthy,
        headBlock: 7_000 + 5 * i,
        finalizedBlock: 7_000 + 5 * i - 2,
      })),
    ]);
    await recordPublicHeadChecks(db.pool, [
      {
        nodeId: NODES.grandpa,
        url: "https://rpc.example.test/",
        checkedAt: ago(5),
        ok: true,
        latencyMs: 30,
        httpStatus: 200,
        errorClass: null,
        errorMessage: null,
        headBlock: 10_280,
        headTime: ago(6),
        finalizedBlock: 10_098,
        nodeHeadBlock: 10_300,
        nodeSampleTime: ago(0),
      },
    ]);
  });
  after(async () => db?.drop());

  test("finality_stalled: seconds since the finalized block moved, 0 when the head is stuck too", async () => {
    const rule = await createAlertRule({ prisma: db.prisma }, ctx, {
      name: "GRANDPA",
      type: "finality_stalled",
      target: "org",
    });
    assert.deepEqual(resolveThresholds("finality_stalled", rule.params), {
      threshold: 900,
      degraded: 600,
      resolveBelow: 600,
      windowMinutes: 0,
    });
    const { byRule } = await collectAlertTargets({ prisma: db.prisma, sql: db.pool }, [rule], now);
    const byName = new Map((byRule.get(rule.id) ?? []).map((t) => [t.name, t.measurement]));
    assert.equal(byName.get("grandpa")?.value, 1_200);
    assert.match(byName.get("grandpa")?.detail ?? "", /finalized #10,098 while the head moved 200 blocks to #10,300/);
    assert.equal(byName.get("stuck")?.value, 0);
    assert.ok((byName.get("healthy")?.value ?? -1) <= 30);
    assert.equal(
      describeCondition({
        type: "finality_stalled",
        value: 1_200,
        thresholds: resolveThresholds("finality_stalled", rule.params),
        blockIntervalMs: 6_000,
      }),
      "finalized block unchanged for 20 minutes while the head advances",
    );
  });

  test("public_head_behind: the node's head minus the head its public URL served", async () => {
    const rule = await createAlertRule({ prisma: db.prisma }, ctx, {
      name: "Balancer",
      type: "public_head_behind",
      target: `node:${NODES.grandpa}`,
      threshold: 10,
    });
    const { byRule } = await collectAlertTargets({ prisma: db.prisma, sql: db.pool }, [rule], now);
    const [target] = byRule.get(rule.id) ?? [];
    assert.equal(target?.measurement.value, 20);
    assert.equal(target?.measurement.detail, "public #10,280, node #10,300");
    assert.equal(
      describeCondition({
        type: "public_head_behind",
        value: 20,
        thresholds: resolveThresholds("public_head_behind", rule.params),
        blockIntervalMs: 6_000,
      }),
      "public URL 20 blocks behind the node's own head (~2 minutes)",
    );
  });
});
