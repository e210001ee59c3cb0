import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { listNodeSuggestionRowsForEvaluation } from "@rpcpulse/db/advisor";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { evaluateNodeAdvice, readStoredDraft, runAdvisorSweep } from "@rpcpulse/services/advisor";
import { createNode, insertTraffic } from "./advisor-fixtures.js";

const ORG = "org-advisor-window";
const MIN = 60_000;

/**
 * The "how to verify" text and window of stored drafts follow the verification window the worker
 * uses (ADVISOR_VERIFY_WINDOW_MINUTES → windowMinutesOverride), not each rule's default.
 */
describe("advisor drafts state the verification window in effect (PostgreSQL)", () => {
  let db: TestDatabase;
  let deps: { prisma: TestDatabase["prisma"]; sql: TestDatabase["pool"] };
  before(async () => {
    db = await createTestDatabase();
    deps = { prisma: db.prisma, sql: db.pool };
    await createTestOrg(db, { id: ORG });
  });
  after(async () => {
    await db.drop();
  });

  const stored = async (nodeId: string) =>
    Object.fromEntries(
      (await listNodeSuggestionRowsForEvaluation(db.prisma, nodeId)).map((r) => [
        r.ruleId,
        readStoredDraft(r.draft).verification,
      ]),
    );

  // A flood plus a node 40 blocks behind with 1 peer: connection-flood and lagging-few-peers.
  const arrange = async (name: string, now: Date) => {
    const nodeId = await createNode(db, ORG, name);
    await insertTraffic(db, nodeId, new Date(now.getTime() - 2 * MIN), now, () => 180, { lagBlocks: 40, peers: 1 });
    return nodeId;
  };

  test("without an override each rule keeps its own minimum and words it", async () => {
    const now = new Date(Date.now() - 2 * 3_600_000);
    const nodeId = await arrange("window-default", now);
    await evaluateNodeAdvice(deps, { nodeId, now }, { windowMinutes: 2, clearAfterMinutes: 3 });
    const v = await stored(nodeId);
    assert.equal(v["connection-flood"]!.minimumWindowMinutes, 30);
    assert.equal(v["lagging-few-peers"]!.minimumWindowMinutes, 30);
    assert.match(v["lagging-few-peers"]!.how, /^Compare lag 30 min before and after/);
  });

  test("the worker's sweep with ADVISOR_VERIFY_WINDOW_MINUTES=2 stores 2 min in window and text", async () => {
    const now = new Date(Date.now() - 3_600_000);
    const nodeId = await arrange("window-override", now);
    await runAdvisorSweep(
      deps,
      { now },
      { windowMinutes: 2, clearAfterMinutes: 3, batchSize: 50, verifyBatchSize: 10, windowMinutesOverride: 2 },
    );
    const v = await stored(nodeId);
    assert.equal(v["connection-flood"]!.minimumWindowMinutes, 2);
    assert.equal(v["lagging-few-peers"]!.minimumWindowMinutes, 2);
    assert.match(v["lagging-few-peers"]!.how, /^Compare lag 2 min before and after/);
  });
});
