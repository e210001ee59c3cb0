import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getEndpointCapabilities } from "@rpcpulse/db/directory";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { CAPABILITY_FLIP_CHECKS, createSafeHttpClient, type CapabilityReport } from "@rpcpulse/prober";
import { startSimnet, type Simnet } from "@rpcpulse/simnet";
import { checkDirectoryCapabilities, getEndpointDetail, seedDemoDirectory } from "@rpcpulse/services/directory";

/**
 * Capability checks through the real path (checkDirectoryCapabilities → prober → simnet over HTTP →
 * endpoint_capabilities on PostgreSQL): transient errors are retried, what still fails leaves the last
 * good report standing, a real change shows only after CAPABILITY_FLIP_CHECKS agreeing checks.
 */
describe("directory capability checks: retries and settled flips", () => {
  let db: TestDatabase;
  let sim: Simnet;
  const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 5_000 });
  const ids = new Map<string, string>();
  const retry = { attempts: 3, baseDelayMs: 20, maxDelayMs: 200, budget: 8 };
  /** One capability run over the given endpoints, each due (maxAgeMs 0, `now` just ahead). */
  const run = (names: string[]) =>
    checkDirectoryCapabilities(
      { sql: db.pool },
      { client, maxAgeMs: 0, concurrency: 2, retry, now: new Date(Date.now() + 1_000), limit: 10 },
    ).then(async (r) => {
      const rows = await getEndpointCapabilities(
        db.pool,
        names.map((n) => ids.get(n) ?? ""),
      );
      return { ...r, rows };
    });
  const row = async (name: string) =>
    (await getEndpointCapabilities(db.pool, [ids.get(name) ?? ""])).get(ids.get(name) ?? "");
  const report = async (name: string) => (await row(name))?.report as unknown as CapabilityReport;

  before(async () => {
    db = await createTestDatabase();
    sim = await startSimnet({
      seed: "capability-settle",
      headPollMs: 50,
      nodes: [
        { name: "eth", family: "ethereum", network: "ethereum-mainnet", archive: true, websocket: false },
        { name: "hive", family: "hive", network: "hive" },
      ],
    });
    const seeded = await seedDemoDirectory(
      { sql: db.pool },
      { nodes: sim.nodes.map((n) => ({ name: n.name, family: n.family, network: n.network, port: n.port })) },
    );
    for (const s of seeded) ids.set(s.name, s.id);
  });
  after(async () => {
    await sim?.close();
    await db?.drop();
  });

  test("a first-ever check whose head call keeps failing stores unknowns, not an empty or zero report", async () => {
    sim.node("hive").failNext(retry.attempts, "http-503");
    const first = await run(["hive", "eth"]);
    assert.equal(first.checked, 2);
    const hive = await row("hive");
    assert.ok(hive);
    assert.equal(hive.coverage, null, "coverage unknown (null), not 0");
    assert.deepEqual(Object.keys(hive.methods).sort(), [
      "account_history_api",
      "block_api",
      "bridge",
      "condenser_api",
      "database_api",
      "rc_api",
    ]);
    assert.ok(Object.values(hive.methods).every((v) => v === null));
    assert.equal(hive.batch, true, "what the later calls learnt is kept");
    // The next check learns the rest at once (unknown → known is not a flip).
    await run(["hive"]);
    const learnt = await row("hive");
    assert.equal(learnt?.coverage, 4 / 6, "simnet hived: no block_api, rc_api");
    assert.equal(learnt?.archive, true);
    const eth = await row("eth");
    assert.equal(eth?.archive, true);
    assert.equal(eth?.coverage, 4 / 6, "geth: eth, net, web3, debug; no trace, txpool");
  });

  test("one 503 is retried within the check; a check that keeps failing leaves the last good report", async () => {
    const good = await row("eth");
    sim.node("eth").failNext(1, "http-503");
    await run(["eth"]);
    const retried = await report("eth");
    assert.ok((retried.retries ?? 0) >= 1, "the 503 was retried (a slow wide eth_getLogs may add a timeout retry)");
    assert.notEqual(retried.headBlock, null);
    assert.deepEqual(retried.unknownChecks, undefined, "nothing was unknown after the retry");
    assert.equal((await row("eth"))?.coverage, good?.coverage);

    sim.node("eth").setErrorRate(1, "http-503");
    try {
      await run(["eth"]);
    } finally {
      sim.node("eth").setErrorRate(0);
    }
    const during = await row("eth");
    assert.ok(during && good && during.checkedAt > good.checkedAt, "the check is recorded");
    assert.equal(during?.coverage, good?.coverage, "coverage not zeroed by an outage during the check");
    assert.deepEqual(during?.methods, good?.methods);
    assert.equal(during?.archive, true);
    assert.equal(during?.batch, true);
    assert.equal(during?.clientVersion, good?.clientVersion);
    const r = during?.report as unknown as CapabilityReport;
    assert.ok((r.unknownChecks?.["methods.eth"] ?? 0) >= 1);
    assert.match(r.errors.join("\n"), /503/);
    const detail = await getEndpointDetail(
      { sql: db.pool, now: () => new Date() },
      { endpointId: ids.get("eth") ?? "" },
    );
    assert.equal(detail.capabilities?.archive, true, "the endpoint page shows the settled capabilities");
  });

  test(`a method that disappears lowers coverage only after ${CAPABILITY_FLIP_CHECKS} agreeing checks`, async () => {
    sim.node("eth").setMissingMethods(["debug_traceBlockByNumber"]);
    try {
      for (let i = 1; i < CAPABILITY_FLIP_CHECKS; i++) {
        const r = await run(["eth"]);
        assert.equal(r.pending, 1);
        const eth = await row("eth");
        assert.equal(eth?.methods.debug, true, `check ${i}: still shown`);
        assert.equal(eth?.coverage, 4 / 6);
        assert.equal((eth?.report as unknown as CapabilityReport).pending?.["methods.debug"]?.checks, i);
      }
      // A check in between that cannot tell (503 on every call) neither counts nor breaks the run.
      sim.node("eth").setErrorRate(1, "http-503");
      await run(["eth"]).finally(() => sim.node("eth").setErrorRate(0));
      assert.equal((await report("eth")).pending?.["methods.debug"]?.checks, CAPABILITY_FLIP_CHECKS - 1);
      const flipped = await run(["eth"]);
      assert.equal(flipped.pending, 0);
      const eth = await row("eth");
      assert.equal(eth?.methods.debug, false);
      assert.equal(eth?.coverage, 3 / 6);
    } finally {
      sim.node("eth").setMissingMethods([]);
    }
    // Back again: the same agreement is needed the other way.
    await run(["eth"]);
    assert.equal((await row("eth"))?.methods.debug, false);
    for (let i = 1; i < CAPABILITY_FLIP_CHECKS; i++) await run(["eth"]);
    assert.equal((await row("eth"))?.methods.debug, true);
    assert.equal((await row("eth"))?.coverage, 4 / 6);
  });
});
