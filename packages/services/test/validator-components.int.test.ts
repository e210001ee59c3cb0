// Validator status components through the real database (plain mode): a public status page lists a
// Polkadot stash (added like a witness), shows its facts (active set, era points against the median,
// offline reports with their blocks, session keys) and its state, and the worker's uptime precompute
// scores its days (out of the active set is down, a day with an offline report at least degraded).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { recordValidatorReading, type ValidatorReading } from "@rpcpulse/db/producers";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import {
  createStatusComponent,
  createStatusPage,
  getPublicStatusPage,
  listComponentCandidates,
  refreshStatusUptimeDays,
} from "@rpcpulse/services/status";
import { registerProducer } from "@rpcpulse/services/producers";
import { type ServiceContext } from "@rpcpulse/services/context";

const ORG = "org-validator-components";
/** A valid Polkadot SS58 stash (simnet's validator #20). */
const STASH = "14BPkWYgSc1VypBu8AN3ALyjxGDi4wrQ1mebRssoXQk7ri6y";
const DAY_MS = 86_400_000;
const STEP_MS = 5 * 60_000;
/** Four days ago at UTC midnight: days 1-3 are finished, day 4 is "today". */
const D1 = Math.floor(Date.now() / DAY_MS) * DAY_MS - 3 * DAY_MS;

describe("validator status components", () => {
  let db: TestDatabase;
  const ctx: ServiceContext = { userId: "u", organizationId: ORG, organizationSlug: ORG, role: "owner" };

  before(async () => {
    db = await createTestDatabase();
    await createTestOrg(db, { id: ORG });
  });
  after(async () => {
    await db?.drop();
  });

  /** One reading: era = the UTC day, points grow through it (`share` of the median). */
  function reading(producerId: string, at: number, over: Partial<ValidatorReading> = {}, share = 1): ValidatorReading {
    const progress = (at % DAY_MS) / DAY_MS;
    const median = Math.round(progress * 10_000);
    return {
      producerId,
      observedAt: new Date(at),
      source: "http://sidecar.internal:8080",
      headBlock: Math.floor(at / 6_000),
      activeEra: Math.floor(at / DAY_MS),
      eraProgress: progress,
      status: "active",
      eraPoints: Math.round(median * share),
      medianPoints: median,
      setSize: 297,
      commissionPpb: 30_000_000,
      blocked: false,
      sessionKeys: "0xabcd",
      keysOnNode: true,
      keysNode: "dot-validator",
      payouts: null,
      scannedBlock: Math.floor(at / 6_000),
      offlineReports: [],
      ...over,
    };
  }

  async function readEvery5Min(id: string, from: number, to: number, f: (at: number) => ValidatorReading) {
    for (let at = from; at < to; at += STEP_MS) await recordValidatorReading(db.pool, f(at));
  }

  it("shows the validator's facts and state on the public page and scores its days", async () => {
    const deps = { prisma: db.prisma, sql: db.pool };
    const validator = await registerProducer({ sql: db.pool }, ctx, { network: "polkadot", account: STASH });
    await db.pool.query(`UPDATE producers SET created_at = $2 WHERE id = $1`, [validator.id, new Date(D1)]);

    // The editor offers the validator like a witness.
    const candidates = await listComponentCandidates(deps, ctx);
    assert.deepEqual(
      candidates.producers.map((p) => p.label),
      [`${STASH} · validator (Polkadot)`],
    );
    const page = await createStatusPage(deps, ctx, { slug: "validator-watch", title: "Validator", isPublic: true });
    const component = await createStatusComponent(deps, ctx, {
      pageId: page.id,
      fields: { ref: `producer:${validator.id}` },
    });

    const D2 = D1 + DAY_MS;
    const D3 = D2 + DAY_MS;
    const D4 = D3 + DAY_MS;
    // Day 1 clean; day 2 an offline report at noon; day 3 out of the active set from noon.
    await readEvery5Min(validator.id, D1, D2, (at) => reading(validator.id, at));
    await readEvery5Min(validator.id, D2, D3, (at) =>
      reading(validator.id, at, {
        offlineReports: at === D2 + DAY_MS / 2 ? [{ block: 1_234, era: Math.floor(at / DAY_MS) }] : [],
      }),
    );
    await readEvery5Min(validator.id, D3, D4, (at) =>
      reading(validator.id, at, { status: at < D3 + DAY_MS / 2 ? "active" : "waiting" }),
    );
    // Day 4 until noon: back in the set, points at 30 % of the median (compared from a quarter of the era).
    await readEvery5Min(validator.id, D4, D4 + DAY_MS / 2, (at) => reading(validator.id, at, {}, 0.3));

    const snap = async (at: number) => {
      const s = await getPublicStatusPage(deps, { slug: "validator-watch" }, { now: new Date(at), fresh: true });
      const c = s.components.find((x) => x.id === component.id);
      assert.ok(c, "the validator component is on the page");
      return { c, json: JSON.stringify(s) };
    };

    // Low era points: degraded.
    const low = await snap(D4 + DAY_MS / 2);
    assert.equal(low.c.kind, "producer");
    assert.equal(low.c.name, `${STASH} (validator)`);
    assert.equal(low.c.network, "Polkadot");
    assert.equal(low.c.state, "degraded");
    const v = low.c.producer?.validator;
    assert.equal(low.c.producer?.kind, "validator");
    assert.equal(v?.inActiveSet, true);
    assert.equal(v?.lowPoints, true);
    assert.ok(v?.pointsShare !== null && Math.abs(v!.pointsShare - 0.3) < 0.01, `share ${v?.pointsShare}`);
    assert.deepEqual(
      v?.offlineReports.map((r) => r.block),
      [1_234],
      "day 2's report is listed for 7 days",
    );
    assert.equal(low.json.includes("sidecar.internal"), false, "the source URL stays private");
    assert.equal(low.json.includes("dot-validator"), false, "the key-holding node's name stays private");
    // Days: 1 clean, 2 at least degraded (the report), 3 half out of the set (down), 4 low points.
    const levels = low.c.days.slice(-4).map((d) => d.level);
    assert.deepEqual(levels, ["ok", "minor", "major", "minor"]);
    assert.equal(low.c.days.at(-2)?.uptime, 0.5);

    // An offline report: major outage, the report with its block first.
    await recordValidatorReading(
      db.pool,
      reading(validator.id, D4 + DAY_MS / 2, { offlineReports: [{ block: 5_678, era: Math.floor(D4 / DAY_MS) }] }),
    );
    const off = await snap(D4 + DAY_MS / 2 + 60_000);
    assert.equal(off.c.state, "major_outage");
    assert.equal(off.c.producer?.producing, false);
    assert.equal(off.c.producer?.validator?.offlineReports[0]?.block, 5_678);

    // Out of the active set: major outage; session keys not held by the organization's node: reported.
    await recordValidatorReading(
      db.pool,
      reading(validator.id, D4 + DAY_MS / 2 + 2 * 3_600_000, { status: "waiting", keysOnNode: false }),
    );
    const out = await snap(D4 + DAY_MS / 2 + 2 * 3_600_000 + 60_000);
    assert.equal(out.c.state, "major_outage");
    assert.equal(out.c.producer?.validator?.status, "waiting");
    assert.equal(out.c.producer?.validator?.keysOnNode, false);

    // Back in the set with the keys and good points, no report in the last hour: operational.
    const back = D4 + DAY_MS / 2 + 3 * 3_600_000;
    await recordValidatorReading(db.pool, reading(validator.id, back));
    assert.equal((await snap(back + 60_000)).c.state, "operational");
    // No reading for 10 minutes: unknown.
    assert.equal((await snap(back + 11 * 60_000)).c.state, "unknown");

    // The worker's precompute writes the finished days (minutes read, in the set, degraded).
    await db.pool.query(`DELETE FROM status_uptime_days WHERE ref_id = $1`, [validator.id]);
    const refresh = await refreshStatusUptimeDays({ sql: db.pool }, { now: new Date(back) });
    assert.ok(refresh.daysWritten >= 3, `written ${refresh.daysWritten}`);
    const { rows } = await db.pool.query(
      `SELECT kind::text AS kind, day, measured_minutes, up_minutes, degraded_minutes FROM status_uptime_days
       WHERE ref_id = $1 ORDER BY day`,
      [validator.id],
    );
    assert.deepEqual(
      rows.map((r) => [r.kind, new Date(r.day).getTime(), r.measured_minutes, r.up_minutes, r.degraded_minutes]),
      [
        ["producer", D1, 1_440, 1_440, 0],
        ["producer", D2, 1_440, 1_440, 1],
        ["producer", D3, 1_440, 720, 0],
      ],
    );
  });
});
