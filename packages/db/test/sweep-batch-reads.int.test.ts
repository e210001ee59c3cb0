// The sweeps' batched reads and writes (issue 13) give exactly what their one-node / one-row twins
// give: advisor windows, reported settings, suggestions and cursors; alert states saved and pruned.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  deleteAlertStatesExcept,
  deleteAlertStatesOutside,
  listAlertStatesForRules,
  listNodeIdsByOrganization,
  listOrganizationNames,
  saveAlertState,
  saveAlertStates,
  type AlertStateRow,
} from "@rpcpulse/db/alerting";
import {
  getReportedSettings,
  listNodeSuggestionRowsForEvaluation,
  listReportedSettings,
  listSuggestionRowsForEvaluationByNode,
  loadAdvisorWindow,
  loadAdvisorWindows,
  recordAdvisorCursor,
  recordAdvisorCursors,
  upsertReportedSettings,
} from "@rpcpulse/db/advisor";
import { insertNodeSamples, insertRemoteIps, type NodeSampleInput } from "@rpcpulse/db/fleet";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "../src/testing.js";

const ORG = "org-sweep-batch";
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const SEC = 1_000;

describe("batched sweep reads and writes match their one-at-a-time twins", () => {
  let db: TestDatabase;
  const nodes: string[] = [];

  before(async () => {
    db = await createTestDatabase();
    await createTestOrg(db, { id: ORG });
    for (let n = 0; n < 4; n++) nodes.push((await createTestNode(db, { organizationId: ORG, name: `n${n}` })).id);
    // Node 0: 40 samples, node 1: 5, node 2: 1 out of every window, node 3: none; IPs on some samples.
    const samples: NodeSampleInput[] = [];
    const ips: { time: Date; nodeId: string; ip: string; conns: number }[] = [];
    const counts = [40, 5, 1, 0];
    for (const [n, count] of counts.entries())
      for (let k = 0; k < count; k++) {
        const time = new Date(NOW - (n === 2 ? 3_600 : 0) * SEC - (count - k) * 10 * SEC);
        samples.push({ time, nodeId: nodes[n]!, tcpEstablished: 10 + k, peers: k % 3 === 0 ? null : 20 });
        if (k % 2 === 0) {
          ips.push({ time, nodeId: nodes[n]!, ip: "192.0.2.9", conns: 3 });
          ips.push({ time, nodeId: nodes[n]!, ip: "2001:db8::2", conns: 3 });
          ips.push({ time, nodeId: nodes[n]!, ip: "192.0.2.1", conns: 7 + k });
        }
      }
    await insertNodeSamples(db.sql, samples);
    await insertRemoteIps(db.sql, ips);
    await upsertReportedSettings(db.sql, [
      { nodeId: nodes[0]!, settings: { somaxconn: 4096 }, reportedAt: new Date(NOW) },
      { nodeId: nodes[2]!, settings: { tcpTwReuse: 1 }, reportedAt: new Date(NOW) },
    ]);
    for (const [n, fingerprint] of [
      [0, "a"],
      [0, "b"],
      [1, "c"],
    ] as const)
      await db.prisma.suggestion.create({
        data: {
          organizationId: ORG,
          nodeId: nodes[n]!,
          fingerprint,
          ruleId: "rule",
          kind: "change",
          severity: "low",
          impact: 1,
          title: fingerprint,
          draft: fingerprint === "b" ? { snippet: ["a", 1], nested: { on: true } } : {},
          lastSeenAt: new Date(NOW),
          ...(fingerprint === "b"
            ? {
                kind: "obsolete_setting" as const,
                state: "applied" as const,
                appliedAt: new Date(NOW - 5),
                appliedBy: "agent" as const,
                verification: { before: 1.5, after: null },
                impact: 2.25,
              }
            : {}),
        },
      });
  });
  after(async () => {
    await db.drop();
  });

  test("advisor windows, settings and suggestions of a batch", async () => {
    for (const maxSamples of [5_000, 12]) {
      const windows = nodes.map((nodeId, n) => ({
        nodeId,
        from: new Date(NOW - 30 * 60 * SEC + n * SEC),
        to: new Date(NOW + 1 + n),
      }));
      const batch = await loadAdvisorWindows(db.sql, { windows, maxSamples });
      assert.equal(batch.size, nodes.length);
      for (const w of windows)
        assert.deepEqual(batch.get(w.nodeId), await loadAdvisorWindow(db.sql, { ...w, maxSamples }));
      assert.equal(batch.get(nodes[0]!)!.samples.length, Math.min(40, maxSamples));
      assert.ok(batch.get(nodes[0]!)!.remoteIps.length > 0);
    }
    assert.equal((await loadAdvisorWindows(db.sql, { windows: [] })).size, 0);

    const settings = await listReportedSettings(db.sql, nodes);
    assert.equal(settings.size, 2);
    for (const id of nodes) assert.deepEqual(settings.get(id) ?? null, await getReportedSettings(db.sql, id));

    const suggestions = await listSuggestionRowsForEvaluationByNode(db.sql, nodes);
    for (const id of nodes) {
      const byFingerprint = (rows: { fingerprint: string }[]) =>
        [...rows].sort((a, b) => a.fingerprint.localeCompare(b.fingerprint));
      assert.deepEqual(
        byFingerprint(suggestions.get(id) ?? []),
        byFingerprint(await listNodeSuggestionRowsForEvaluation(db.prisma, id)),
      );
    }
  });

  test("alert round reads: node ids and names of organizations", async () => {
    const byOrg = await listNodeIdsByOrganization(db.sql, [ORG, "org-without-nodes"]);
    assert.deepEqual([...byOrg.keys()], [ORG]);
    assert.deepEqual([...byOrg.get(ORG)!].sort(), [...nodes].sort());
    assert.equal((await listNodeIdsByOrganization(db.sql, [])).size, 0);
    assert.deepEqual(
      [...(await listOrganizationNames(db.sql, [ORG, "org-missing"]))],
      [[ORG, { name: ORG, slug: ORG }]],
    );
  });

  test("advisor cursors: one statement, never moved back", async () => {
    const cursorsOf = async () =>
      (
        await db.sql.query(
          "SELECT node_id, evaluated_up_to, evaluated_at FROM advisor_node_cursors ORDER BY node_id",
          [],
        )
      ).rows;
    const first = nodes.map((nodeId, n) => ({
      nodeId,
      evaluatedUpTo: new Date(NOW - n * SEC),
      evaluatedAt: new Date(NOW),
    }));
    const second = first.map((c, n) => ({
      ...c,
      evaluatedUpTo: new Date(c.evaluatedUpTo.getTime() + (n % 2 === 0 ? 5 : -5) * SEC),
      evaluatedAt: new Date(NOW + 60 * SEC),
    }));
    for (const c of [...first, ...second]) await recordAdvisorCursor(db.sql, c);
    const single = await cursorsOf();
    await db.sql.query("DELETE FROM advisor_node_cursors", []);
    await recordAdvisorCursors(db.sql, first);
    await recordAdvisorCursors(db.sql, second);
    await recordAdvisorCursors(db.sql, []);
    assert.deepEqual(await cursorsOf(), single);
  });

  test("alert states: saved in one statement and pruned for many rules, as one at a time", async () => {
    const rules: string[] = [];
    for (let r = 0; r < 2; r++)
      rules.push(
        (
          await db.prisma.alertRule.create({
            data: { organizationId: ORG, name: `r${r}`, type: "lag", targetKind: "org_nodes", params: {} },
          })
        ).id,
      );
    const stateOf = (ruleId: string, n: number, round: number): AlertStateRow => ({
      ruleId,
      targetKey: `node:${nodes[n]}`,
      organizationId: ORG,
      targetName: `n${n} ${round}`,
      status: round === 0 ? "pending" : "firing",
      since: new Date(NOW + round * SEC),
      breachSince: round === 0 ? new Date(NOW) : null,
      firingSince: n % 2 === 0 ? new Date(NOW + 7) : null,
      clearSince: null,
      lastValue: n === 3 ? null : 12.5 + n,
      summary: `lag ${n}`,
      lastNotifiedAt: round === 1 ? new Date(NOW + 99) : null,
      dedupKey: n === 1 ? `${ruleId}:x` : null,
      silenced: n === 2,
      evaluatedAt: new Date(NOW + round * SEC),
    });
    const readStates = async () =>
      db.prisma.alertState.findMany({ orderBy: [{ ruleId: "asc" }, { targetKey: "asc" }] });
    const rounds = [0, 1].map((round) => rules.flatMap((ruleId) => nodes.map((_, n) => stateOf(ruleId, n, round))));
    const keep = [
      { ruleId: rules[0]!, targetKey: `node:${nodes[1]}` },
      { ruleId: rules[0]!, targetKey: `node:${nodes[2]}` },
      { ruleId: rules[1]!, targetKey: `node:${nodes[0]}` },
    ];

    for (const row of rounds.flat()) await saveAlertState(db.prisma, row);
    for (const ruleId of rules)
      await deleteAlertStatesExcept(db.prisma, {
        ruleId,
        keepTargetKeys: keep.filter((k) => k.ruleId === ruleId).map((k) => k.targetKey),
      });
    const single = await readStates();
    await db.prisma.alertState.deleteMany({});

    for (const round of rounds) await saveAlertStates(db.sql, round);
    assert.equal((await readStates()).length, rules.length * nodes.length);
    const listed = await listAlertStatesForRules(db.sql, rules);
    const byKey = (a: AlertStateRow, b: AlertStateRow) =>
      a.ruleId.localeCompare(b.ruleId) || a.targetKey.localeCompare(b.targetKey);
    assert.deepEqual([...listed].sort(byKey), [...(await readStates())].sort(byKey));
    assert.deepEqual(await listAlertStatesForRules(db.sql, []), []);
    await deleteAlertStatesOutside(db.sql, { ruleIds: rules, keep });
    assert.deepEqual(await readStates(), single);
    assert.equal(single.length, keep.length);
  });
});
