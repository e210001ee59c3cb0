import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { SuggestionDraft } from "@rpcpulse/advisor";
import { isAppError } from "@rpcpulse/config";
import {
  applySuggestionPlan,
  getReportedSettings,
  listNodeSuggestionRowsForEvaluation,
  upsertReportedSettings,
} from "@rpcpulse/db/advisor";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import {
  updateSuggestionState,
  evaluateNodeAdvice,
  exportSuggestionsScript,
  listSuggestions,
  planSuggestionChanges,
  runAdvisorSweep,
  toAdvisorSettings,
} from "@rpcpulse/services/advisor";
import { createNode, ctxOf, insertTraffic } from "./advisor-fixtures.js";

const ORG_A = "org-advisor-a";
const ORG_B = "org-advisor-b";
const MIN = 60_000;
const FLOOD = "connection-flood";

async function rejects(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (e: unknown) => isAppError(e) && e.code === code);
}

describe("tuning advisor services (PostgreSQL)", () => {
  let db: TestDatabase;
  let deps: { prisma: TestDatabase["prisma"]; sql: TestDatabase["pool"] };
  const timing = { windowMinutes: 2, clearAfterMinutes: 3 };
  before(async () => {
    db = await createTestDatabase();
    deps = { prisma: db.prisma, sql: db.pool };
    await createTestOrg(db, { id: ORG_A });
    await createTestOrg(db, { id: ORG_B });
  });
  after(async () => {
    await db.drop();
  });

  const floodRows = async (nodeId: string) =>
    (await listNodeSuggestionRowsForEvaluation(db.prisma, nodeId)).filter((r) => r.ruleId === FLOOD);

  test("a flood opens a suggestion; it refreshes, clears, auto-closes and re-opens", async () => {
    const nodeId = await createNode(db, ORG_A, "flooded");
    const t0 = new Date(Date.now() - 3 * 3_600_000);
    await insertTraffic(db, nodeId, new Date(t0.getTime() - 2 * MIN), t0, () => 180);
    const first = await evaluateNodeAdvice(deps, { nodeId, now: t0 }, timing);
    assert.equal(first.samples, 12);
    let [row] = await floodRows(nodeId);
    assert.ok(row, "flood suggestion opened");
    assert.equal(row.state, "open");
    assert.equal(row.organizationId, ORG_A);
    assert.equal(row.kind, "change");
    const evidence = (row.draft as SuggestionDraft).evidence[0]!;
    assert.equal(evidence.metric, "top_ip_connections");
    assert.equal(evidence.observed, 180);

    // Silence (no samples in the window) says nothing: the condition does not start clearing.
    const silent = await evaluateNodeAdvice(deps, { nodeId, now: new Date(t0.getTime() + 10 * MIN) }, timing);
    assert.equal(silent.samples, 0);
    assert.equal((await floodRows(nodeId))[0]!.conditionClearedSince, null);

    // Still flooded a minute later: same row, refreshed.
    const t1 = new Date(t0.getTime() + MIN);
    await insertTraffic(db, nodeId, t0, t1, () => 240);
    await evaluateNodeAdvice(deps, { nodeId, now: t1 }, timing);
    const rows = await floodRows(nodeId);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.lastSeenAt.getTime(), t1.getTime());
    assert.equal((rows[0]!.draft as SuggestionDraft).evidence[0]!.observed, 240);

    // Flood stops: the clear period starts at the first evaluation without it...
    const t2 = new Date(t1.getTime() + 3 * MIN);
    await insertTraffic(db, nodeId, t1, t2, () => 0);
    await evaluateNodeAdvice(deps, { nodeId, now: t2 }, timing);
    [row] = await floodRows(nodeId);
    assert.equal(row!.state, "open");
    assert.equal(row!.conditionClearedSince?.getTime(), t2.getTime());
    // ...and after clearAfterMinutes it auto-closes.
    const t3 = new Date(t2.getTime() + 3 * MIN);
    await insertTraffic(db, nodeId, t2, t3, () => 0);
    await evaluateNodeAdvice(deps, { nodeId, now: t3 }, timing);
    [row] = await floodRows(nodeId);
    assert.equal(row!.state, "auto_closed");

    // The flood comes back: the same suggestion re-opens.
    const t4 = new Date(t3.getTime() + 2 * MIN);
    await insertTraffic(db, nodeId, t3, t4, () => 300);
    await evaluateNodeAdvice(deps, { nodeId, now: t4 }, timing);
    [row] = await floodRows(nodeId);
    assert.equal(row!.state, "open");
    assert.equal(row!.reopenCount, 1);
    assert.equal(row!.conditionClearedSince, null);

    const [view] = await listSuggestions(deps, ctxOf(ORG_A), { nodeId });
    assert.deepEqual(
      view!.events.map((e) => [e.fromState, e.toState, e.actor]),
      [
        [null, "open", "system"],
        ["open", "auto_closed", "system"],
        ["auto_closed", "open", "system"],
      ],
    );
    assert.match(view!.events[1]!.reason ?? "", /absent for 3 minutes/);
  });

  test("no flood, no suggestion (negative twin)", async () => {
    const nodeId = await createNode(db, ORG_A, "calm");
    const t0 = new Date(Date.now() - 2 * 3_600_000);
    await insertTraffic(db, nodeId, new Date(t0.getTime() - 2 * MIN), t0, () => 3);
    const result = await evaluateNodeAdvice(deps, { nodeId, now: t0 }, timing);
    assert.equal(result.samples, 12);
    assert.deepEqual(await floodRows(nodeId), []);
  });

  test("lifecycle: roles, reasons, allowed transitions, tenant isolation", async () => {
    const nodeId = await createNode(db, ORG_A, "lifecycle");
    const t0 = new Date(Date.now() - 3_600_000);
    await insertTraffic(db, nodeId, new Date(t0.getTime() - 2 * MIN), t0, () => 200);
    await evaluateNodeAdvice(deps, { nodeId, now: t0 }, timing);
    const [row] = await floodRows(nodeId);
    const id = row!.id;
    const owner = ctxOf(ORG_A);
    await rejects(
      updateSuggestionState(deps, ctxOf(ORG_A, "viewer"), { suggestionId: id, action: "acknowledge" }),
      "FORBIDDEN",
    );
    await rejects(updateSuggestionState(deps, ctxOf(ORG_B), { suggestionId: id, action: "acknowledge" }), "NOT_FOUND");
    await rejects(updateSuggestionState(deps, owner, { suggestionId: "nope", action: "acknowledge" }), "NOT_FOUND");
    assert.equal((await listSuggestions(deps, ctxOf(ORG_B))).length, 0);
    assert.equal((await listSuggestions(deps, ctxOf(ORG_A, "viewer"), { nodeId })).length, 1);

    await rejects(updateSuggestionState(deps, owner, { suggestionId: id, action: "dismiss" }), "VALIDATION");
    await rejects(
      updateSuggestionState(deps, owner, { suggestionId: id, action: "dismiss", reason: " " }),
      "VALIDATION",
    );
    await rejects(updateSuggestionState(deps, owner, { suggestionId: id, action: "reopen" }), "CONFLICT");
    const acked = await updateSuggestionState(deps, ctxOf(ORG_A, "admin"), { suggestionId: id, action: "acknowledge" });
    assert.equal(acked.state, "acknowledged");
    await rejects(updateSuggestionState(deps, owner, { suggestionId: id, action: "acknowledge" }), "CONFLICT");
    const dismissed = await updateSuggestionState(deps, owner, {
      suggestionId: id,
      action: "dismiss",
      reason: "127.0.0.77 is our own load balancer",
    });
    assert.equal(dismissed.state, "dismissed");
    assert.equal(dismissed.dismissReason, "127.0.0.77 is our own load balancer");
    // A dismissed suggestion stays dismissed while the condition persists.
    const t1 = new Date(t0.getTime() + MIN);
    await insertTraffic(db, nodeId, t0, t1, () => 200);
    await evaluateNodeAdvice(deps, { nodeId, now: t1 }, timing);
    assert.equal((await floodRows(nodeId))[0]!.state, "dismissed");
    const reopened = await updateSuggestionState(deps, owner, { suggestionId: id, action: "reopen" });
    assert.equal(reopened.state, "open");
    assert.equal(reopened.dismissReason, null);
    const applied = await updateSuggestionState(deps, owner, { suggestionId: id, action: "apply" });
    assert.equal(applied.state, "applied");
    assert.equal(applied.appliedBy, "operator");
    assert.equal(applied.appliedByUserId, owner.userId);
    assert.deepEqual(
      applied.events.map((e) => `${e.fromState ?? "-"}>${e.toState}:${e.actor === owner.userId ? "owner" : e.actor}`),
      [
        "->open:system",
        "open>acknowledged:user-org-advisor-a-admin",
        "acknowledged>dismissed:owner",
        "dismissed>open:owner",
        "open>applied:owner",
      ],
    );
  });

  test("explanations and obsolete settings cannot be marked applied", async () => {
    const nodeId = await createNode(db, ORG_A, "explained");
    const now = new Date();
    const draft = (kind: SuggestionDraft["kind"], fingerprint: string): SuggestionDraft => ({
      ruleId: "test-rule",
      fingerprint,
      kind,
      title: `a ${kind}`,
      severity: "info",
      impact: 1,
      summary: "s",
      evidence: [],
      arithmetic: [],
      snippets: [],
      caveats: [],
      expectedEffect: "",
      verification: { metric: "tw_inbound", direction: "decrease", minimumWindowMinutes: 30, how: "" },
      sources: [],
    });
    await applySuggestionPlan(
      db.prisma,
      planSuggestionChanges({
        organizationId: ORG_A,
        nodeId,
        existing: [],
        drafts: [draft("explanation", "x:1"), draft("obsolete-setting", "x:2")],
        settings: null,
        now,
        clearAfterMs: 30 * MIN,
      }),
    );
    const rows = await listNodeSuggestionRowsForEvaluation(db.prisma, nodeId);
    assert.equal(rows.length, 2);
    for (const row of rows) {
      await rejects(updateSuggestionState(deps, ctxOf(ORG_A), { suggestionId: row.id, action: "apply" }), "CONFLICT");
    }
    const explanation = rows.find((r) => r.kind === "explanation")!;
    const closed = await updateSuggestionState(deps, ctxOf(ORG_A), { suggestionId: explanation.id, action: "close" });
    assert.equal(closed.state, "closed");
  });

  test("applied is detected when the agent reports the setting, only after it was seen without it", async () => {
    const nodeId = await createNode(db, ORG_A, "settings");
    const t0 = new Date(Date.now() - 30 * MIN);
    const draft: SuggestionDraft = {
      ruleId: "listen-overflow",
      fingerprint: "listen-overflow:8091",
      kind: "change",
      title: "Raise the listen backlog",
      severity: "medium",
      impact: 40,
      summary: "s",
      evidence: [],
      arithmetic: [],
      snippets: [],
      caveats: [],
      expectedEffect: "",
      verification: { metric: "listen_overflows", direction: "decrease", minimumWindowMinutes: 30, how: "" },
      sources: [],
      appliesWhen: { setting: "somaxconn", expected: ">=8192" },
    };
    const settingsAt = async (somaxconn: number, at: Date) => {
      await upsertReportedSettings(db.sql, [
        { nodeId, settings: { somaxconn, tcpTwRecycleLines: [], ipLocalPortRange: null }, reportedAt: at },
      ]);
      return toAdvisorSettings(await getReportedSettings(db.sql, nodeId));
    };
    const step = async (drafts: SuggestionDraft[], somaxconn: number, at: Date) => {
      const settings = await settingsAt(somaxconn, at);
      const existing = await listNodeSuggestionRowsForEvaluation(db.prisma, nodeId);
      await applySuggestionPlan(
        db.prisma,
        planSuggestionChanges({
          organizationId: ORG_A,
          nodeId,
          existing,
          drafts,
          settings,
          now: at,
          clearAfterMs: 30 * MIN,
        }),
      );
      return (await listNodeSuggestionRowsForEvaluation(db.prisma, nodeId))[0]!;
    };
    // Opened while somaxconn is 4096 (seen without the setting).
    let row = await step([draft], 4096, t0);
    assert.equal(row.state, "open");
    // Operator raises it; the condition clears in the same evaluation: applied by the agent, not auto-closed.
    row = await step([], 16384, new Date(t0.getTime() + MIN));
    assert.equal(row.state, "applied");
    assert.equal(row.appliedBy, "agent");
    assert.equal(row.appliedAt?.getTime(), t0.getTime() + MIN);

    // A suggestion whose setting was already in place when it opened is never agent-applied.
    const other = await createNode(db, ORG_A, "settings-2");
    await upsertReportedSettings(db.sql, [{ nodeId: other, settings: { somaxconn: 16384 }, reportedAt: t0 }]);
    const settings = toAdvisorSettings(await getReportedSettings(db.sql, other));
    await applySuggestionPlan(
      db.prisma,
      planSuggestionChanges({
        organizationId: ORG_A,
        nodeId: other,
        existing: [],
        drafts: [draft],
        settings,
        now: t0,
        clearAfterMs: 30 * MIN,
      }),
    );
    const existing = await listNodeSuggestionRowsForEvaluation(db.prisma, other);
    await applySuggestionPlan(
      db.prisma,
      planSuggestionChanges({
        organizationId: ORG_A,
        nodeId: other,
        existing,
        drafts: [draft],
        settings,
        now: new Date(t0.getTime() + MIN),
        clearAfterMs: 30 * MIN,
      }),
    );
    assert.equal((await listNodeSuggestionRowsForEvaluation(db.prisma, other))[0]!.state, "open");
  });

  for (const [name, afterLevel, expected] of [
    ["helped", 15, "verified"],
    ["no-effect", 200, "not_effective"],
    ["hurt", 320, "not_effective"],
  ] as const) {
    test(`verification: after-series where the change ${name === "no-effect" ? "did nothing" : name} → ${expected}`, async () => {
      const nodeId = await createNode(db, ORG_A, `verify-${name}`);
      const applyAt = new Date(Date.now() - 5 * 3_600_000);
      const window = 10 * MIN;
      await insertTraffic(db, nodeId, new Date(applyAt.getTime() - window), applyAt, (i) => 200 + 12 * Math.sin(i));
      await evaluateNodeAdvice(deps, { nodeId, now: applyAt }, { windowMinutes: 10, clearAfterMinutes: 30 });
      const [row] = await floodRows(nodeId);
      await updateSuggestionState(deps, ctxOf(ORG_A), { suggestionId: row!.id, action: "apply" }, applyAt);
      await insertTraffic(
        db,
        nodeId,
        applyAt,
        new Date(applyAt.getTime() + window),
        (i) => afterLevel + (afterLevel / 16) * Math.sin(i * 1.7),
      );
      // Not due before the window has passed.
      const early = await runAdvisorSweep(
        deps,
        { now: new Date(applyAt.getTime() + 5 * MIN) },
        { ...timing, batchSize: 1, verifyBatchSize: 50, windowMinutesOverride: 10 },
      );
      assert.equal(early.verification.checked, 0);
      const report = await runAdvisorSweep(
        deps,
        { now: new Date(applyAt.getTime() + window) },
        { ...timing, batchSize: 1, verifyBatchSize: 50, windowMinutesOverride: 10 },
      );
      assert.ok(report.verification.checked >= 1);
      const [view] = await listSuggestions(deps, ctxOf(ORG_A), { nodeId });
      assert.equal(view!.state, expected);
      const v = view!.verification!;
      assert.equal(v.result.verdict, name);
      assert.equal(v.metric, "top_ip_connections");
      assert.equal(v.before.points.length, 60);
      assert.equal(v.after.points.length, 60);
      assert.ok(v.result.ciLow !== null && v.result.ciHigh !== null && v.result.ciLow <= v.result.ciHigh);
      if (name === "helped") assert.ok(v.result.ciHigh! < 0);
      if (name === "hurt") assert.ok(v.result.ciLow! > 0);
      assert.equal(view!.events.at(-1)!.toState, expected);
    });
  }

  test("verification without after data stays applied (insufficient data)", async () => {
    const nodeId = await createNode(db, ORG_A, "verify-silent");
    const applyAt = new Date(Date.now() - 4 * 3_600_000);
    await insertTraffic(db, nodeId, new Date(applyAt.getTime() - 10 * MIN), applyAt, () => 220);
    await evaluateNodeAdvice(deps, { nodeId, now: applyAt }, { windowMinutes: 10, clearAfterMinutes: 30 });
    const [row] = await floodRows(nodeId);
    await updateSuggestionState(deps, ctxOf(ORG_A), { suggestionId: row!.id, action: "apply" }, applyAt);
    await runAdvisorSweep(
      deps,
      { now: new Date(applyAt.getTime() + 10 * MIN) },
      { ...timing, batchSize: 1, verifyBatchSize: 50, windowMinutesOverride: 10 },
    );
    const [view] = await listSuggestions(deps, ctxOf(ORG_A), { nodeId });
    assert.equal(view!.state, "applied");
    assert.equal(view!.verification?.result.verdict, "insufficient-data");
  });

  test("export: a commented, guarded shell script that bash accepts", async () => {
    const script = await exportSuggestionsScript(deps, ctxOf(ORG_A));
    assert.match(script.filename, /^rpcpulse-advice-org-advisor-a\.sh$/);
    assert.ok(script.suggestions >= 1);
    const text = script.content;
    assert.match(text, /^#!\/usr\/bin\/env bash\n/);
    assert.match(text, /RPC Pulse never changes a node by itself/);
    assert.match(text, /<<'RPCPULSE_EOF'/);
    assert.match(text, /limit_conn/);
    const dir = mkdtempSync(join(tmpdir(), "rpcpulse-advice-"));
    try {
      const file = join(dir, script.filename);
      writeFileSync(file, text);
      execFileSync("bash", ["-n", file]);
      // Run as is, it only lists: suggestions and their snippet ids.
      const listed = execFileSync("bash", [file], { encoding: "utf8" });
      assert.match(listed, /^\[1\] /);
      assert.match(listed, /\n {4}1\.1 {2}nginx/);
      for (const bad of ["999", "9.9", "1", "1.1;id", "../1.1"]) {
        assert.throws(() => execFileSync("bash", [file, "apply", bad], { stdio: "pipe" }), bad);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const other = await exportSuggestionsScript(deps, ctxOf(ORG_B));
    assert.equal(other.suggestions, 0);
    assert.ok(!other.content.includes("10.9.9.9"));
  });

  test("export: apply N.M writes one snippet literally, backing up what it replaces; printed snippets stay printed", async () => {
    const nodeId = await createNode(db, ORG_B, "export-apply");
    const dir = mkdtempSync(join(tmpdir(), "rpcpulse-advice-apply-"));
    const target = join(dir, "90-rpc-node.conf");
    const content = "net.core.somaxconn = 8192\n# $HOME and `x` stay literal\nRPCPULSE_EOF\n";
    const draft: SuggestionDraft = {
      ruleId: "listen-overflow",
      fingerprint: "listen-overflow:export",
      kind: "change",
      title: "Raise the listen backlog",
      severity: "high",
      impact: 60,
      summary: "s",
      evidence: [],
      arithmetic: [],
      snippets: [
        { kind: "sysctl", title: "sysctl.d file", filename: target, content, applyCommand: "sysctl --system" },
        {
          kind: "nginx",
          title: "listen backlog",
          filename: "nginx.conf server {} block",
          content: "listen 80 backlog=8192;",
        },
      ],
      caveats: [],
      expectedEffect: "",
      verification: { metric: "listen_overflows", direction: "decrease", minimumWindowMinutes: 30, how: "" },
      sources: [],
    };
    await applySuggestionPlan(
      db.prisma,
      planSuggestionChanges({
        organizationId: ORG_B,
        nodeId,
        existing: [],
        drafts: [draft],
        settings: null,
        now: new Date(),
        clearAfterMs: 30 * MIN,
      }),
    );
    try {
      const script = await exportSuggestionsScript(deps, ctxOf(ORG_B), { nodeId });
      assert.equal(script.filename, "rpcpulse-advice-export-apply.sh");
      const file = join(dir, script.filename);
      writeFileSync(file, script.content);
      execFileSync("bash", ["-n", file]);
      writeFileSync(target, "old\n");
      const out = execFileSync("bash", [file, "apply", "1.1"], { encoding: "utf8" });
      assert.equal(readFileSync(target, "utf8"), content, "written literally (heredoc tag collision avoided)");
      assert.match(out, /next \(by hand\): sysctl --system/);
      const backups = readdirSync(dir).filter((f) => f.startsWith("90-rpc-node.conf.rpcpulse-backup-"));
      assert.equal(backups.length, 1);
      assert.equal(readFileSync(join(dir, backups[0]!), "utf8"), "old\n");
      // A snippet without a file path is printed, never written.
      const printed = execFileSync("bash", [file, "apply", "1.2"], { encoding: "utf8" });
      assert.equal(printed.trim(), "listen 80 backlog=8192;");
      assert.deepEqual(readdirSync(dir).sort(), [script.filename, "90-rpc-node.conf", backups[0]!].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
