// Consensus-client readings (migration 0021) in both storage modes: history rows and the newest reading
// per node (a failed read keeps the last head and the last comparable execution-client check), replays
// inserting nothing twice, bucketed series, retention and orphans.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  listBeaconSeries,
  listNodeBeaconLatest,
  pruneBeaconSamples,
  writeBeaconSamples,
  type BeaconSampleRow,
} from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  createTestDatabase,
  createTimescaleTestDatabase,
  type TestDatabase,
  type TimescaleTestDatabase,
} from "../src/testing.js";
import { insertFixtureFleet, NODE_1, NODE_2 } from "./fixtures.js";

const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
const HASH = `0x${"ab".repeat(32)}`;

function row(second: number, over: Partial<BeaconSampleRow> = {}): BeaconSampleRow {
  const wall = 13_000_000 + Math.floor(second / 12);
  return {
    time: T0 + second * 1000,
    ok: true,
    headSlot: wall,
    wallSlot: wall,
    slotsBehind: 0,
    syncDistance: 0,
    syncing: false,
    optimistic: false,
    elOffline: false,
    peers: 80,
    version: "Lighthouse/v7.1.0-abc/x86_64-linux",
    execBlock: 22_000_000 + second,
    execHash: HASH,
    elBlock: 22_000_000 + second,
    elCheck: "match",
    error: null,
    ...over,
  };
}

async function checks(sql: SqlClient): Promise<void> {
  await insertFixtureFleet(sql);
  const first = [row(0), row(10), row(20)];
  assert.equal(await writeBeaconSamples(sql, [{ nodeId: NODE_1, beacon: first }]), 3);
  assert.equal(await writeBeaconSamples(sql, [{ nodeId: NODE_1, beacon: first }]), 0, "a replay inserts nothing");
  assert.equal(await writeBeaconSamples(sql, [{ nodeId: NODE_2, beacon: null }]), 0);

  // The beacon node falls behind, then its API fails: the last head and the last check stay.
  await writeBeaconSamples(sql, [
    {
      nodeId: NODE_1,
      beacon: [
        row(30, { headSlot: 12_999_990, slotsBehind: 12, syncDistance: 12, syncing: true, elCheck: null }),
        row(40, {
          ok: false,
          headSlot: null,
          slotsBehind: null,
          syncDistance: null,
          syncing: null,
          peers: null,
          version: null,
          execBlock: null,
          execHash: null,
          elCheck: null,
          error: "GET /eth/v1/beacon/headers/head: HTTP 503",
        }),
      ],
    },
  ]);
  // An older sample arriving late does not overwrite the newest.
  await writeBeaconSamples(sql, [{ nodeId: NODE_1, beacon: [row(25)] }]);
  const [latest] = await listNodeBeaconLatest(sql, [NODE_1, NODE_2]);
  assert.ok(latest);
  assert.equal(latest.nodeId, NODE_1);
  assert.equal(latest.ok, false);
  assert.equal(latest.time.getTime(), T0 + 40_000);
  assert.equal(latest.lastHeadSlot, 12_999_990);
  assert.equal(latest.lastOkAt?.getTime(), T0 + 30_000);
  assert.equal(latest.elCheck, "match", "the last comparable check is kept");
  assert.equal(latest.elCheckAt?.getTime(), T0 + 20_000);
  assert.equal(latest.version, "Lighthouse/v7.1.0-abc/x86_64-linux", "the version is kept while the API fails");
  assert.match(latest.error ?? "", /503/);

  const raw = await listBeaconSeries(sql, { nodeId: NODE_1, from: new Date(T0), to: new Date(T0 + 60_000) });
  assert.deepEqual(
    raw.map((p) => [p.time.getTime() - T0, p.slotsBehind]),
    [
      [0, 0],
      [10_000, 0],
      [20_000, 0],
      [25_000, 0],
      [30_000, 12],
      [40_000, null],
    ],
  );
  const buckets = await listBeaconSeries(sql, {
    nodeId: NODE_1,
    from: new Date(T0),
    to: new Date(T0 + 60_000),
    bucketMs: 30_000,
  });
  assert.deepEqual(
    buckets.map((p) => [p.time.getTime() - T0, p.slotsBehind, p.syncing, p.elCheck, p.ok]),
    [
      [0, 0, false, "match", true],
      [30_000, 12, true, null, true],
    ],
  );

  // Retention: raw_retention (30 days by default) before `now`; the newest reading of a deleted node goes.
  await sql.query(`DELETE FROM nodes WHERE id = $1`, [NODE_1]);
  // Timescale drops whole 7-day chunks: 45 days on, the chunk of T0 is past the 30-day retention.
  const pruned = await pruneBeaconSamples(sql, new Date(T0 + 45 * 86_400_000));
  assert.equal(pruned.orphans, 1);
  const { rows } = await sql.query(`SELECT count(*)::int AS n FROM beacon_samples`);
  assert.equal((rows[0] as { n: number }).n, 0);
}

describe("beacon samples, plain PostgreSQL", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(() => db.drop());
  test("history, newest reading, series, retention", async () => {
    await checks(db.sql);
  });
});

describe("beacon samples, TimescaleDB", () => {
  let db: TimescaleTestDatabase;
  before(async () => {
    db = await createTimescaleTestDatabase();
  });
  after(() => db.close());
  test("beacon_samples is a hypertable and answers the same", async () => {
    await checks(db.sql);
    const { rows } = await db.sql.query(
      `SELECT count(*)::int AS n FROM timescaledb_information.hypertables WHERE hypertable_name = 'beacon_samples'`,
    );
    assert.equal((rows[0] as { n: number }).n, 1);
  });
});
