// Producers (migrations 0017, 0024) in both storage modes: plain PostgreSQL and TimescaleDB (PGlite), the
// same readings giving the same misses, key change and history.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  deleteProducer,
  listNodesAroundMiss,
  insertProducer,
  listProducerMisses,
  listProducerSources,
  listProducerStatuses,
  readProducerHistory,
  recordProducerError,
  recordProducerReading,
  type ProducerReading,
} from "@rpcpulse/db/producers";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  createTestDatabase,
  createTimescaleTestDatabase,
  type TestDatabase,
  type TimescaleTestDatabase,
} from "../src/testing.js";
import { insertFixtureFleet, NODE_1, NODE_2, ORG_ID } from "./fixtures.js";

const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
const MIN = 60_000;

function reading(producerId: string, minute: number, over: Partial<ProducerReading> = {}): ProducerReading {
  return {
    producerId,
    observedAt: new Date(T0 + minute * MIN),
    source: "http://127.0.0.1:18091",
    headBlock: 1_000 + minute * 20,
    totalMissed: 7,
    lastConfirmedBlock: 990 + minute * 20,
    signingKey: "STM5key",
    disabled: false,
    runningVersion: "1.27.11",
    hardforkVote: "1.27.0",
    majorityVersion: "1.27.11",
    feedBase: "0.250 HBD",
    feedQuote: "1.000 HIVE",
    feedUpdatedAt: new Date(T0 - 2 * 3_600_000),
    votes: "123456789",
    rank: 3,
    inSchedule: true,
    ...over,
  };
}

async function checks(sql: SqlClient, name: string): Promise<void> {
  await insertFixtureFleet(sql);
  const p = await insertProducer(sql, { organizationId: ORG_ID, network: "fixture-net", account: "arcange" });
  assert.ok(p, name);
  const again = await insertProducer(sql, { organizationId: ORG_ID, network: "fixture-net", account: "arcange" });
  assert.equal(again?.id, p.id, "registering twice keeps one row");
  assert.equal(await insertProducer(sql, { organizationId: ORG_ID, network: "nowhere", account: "arcange" }), null);
  await assert.rejects(insertProducer(sql, { organizationId: ORG_ID, network: "fixture-net", account: "Bad Name" }));

  const first = await recordProducerReading(sql, reading(p.id, 0));
  assert.deepEqual(first, { miss: null, keyChanged: false });
  await recordProducerReading(sql, reading(p.id, 1));
  // The caller's exact blocks (producer_missed vops, 0024): those outside the range are dropped.
  const missed = await recordProducerReading(
    sql,
    reading(p.id, 2, { totalMissed: 8, missedBlocks: [1_035, 1_030, 999, 1_030] }),
  );
  assert.deepEqual(missed.miss, { fromBlock: 1_021, toBlock: 1_040, count: 1, missedBlocks: [1_030, 1_035] });
  const changed = await recordProducerReading(sql, reading(p.id, 3, { totalMissed: 8, signingKey: "STM5other" }));
  assert.equal(changed.keyChanged, true);
  await recordProducerError(sql, { producerId: p.id, at: new Date(T0 + 4 * MIN), message: "HTTP 502" });

  const [status] = await listProducerStatuses(sql, { organizationIds: [ORG_ID] });
  assert.equal(status?.latest?.totalMissed, 8);
  assert.equal(status?.latest?.previousSigningKey, "STM5key");
  assert.equal(status?.latest?.keyChangedAt?.getTime(), T0 + 3 * MIN);
  assert.equal(status?.error?.message, "HTTP 502");

  const misses = await listProducerMisses(sql, { producerIds: [p.id], since: new Date(T0) });
  assert.equal(misses.length, 1);
  assert.equal(misses[0]?.toBlock, 1_040);
  assert.deepEqual(misses[0]?.missedBlocks, [1_030, 1_035]);

  const history = await readProducerHistory(sql, {
    producerId: p.id,
    from: new Date(T0),
    to: new Date(T0 + 10 * MIN),
    bucketSeconds: 120,
  });
  assert.deepEqual(
    history.map((h) => [h.bucket.getTime() - T0, h.missed, h.feedAgeS]),
    [
      [0, 0, 7_260],
      [2 * MIN, 1, 7_380],
    ],
  );

  await insertNodeSamples(sql, [
    {
      time: new Date(T0 + 1 * MIN),
      nodeId: NODE_1,
      lagBlocks: 2,
      listenOverflows: 3,
      memAvailable: 10,
      memTotal: 1000,
    },
    { time: new Date(T0 + 2 * MIN), nodeId: NODE_1, lagBlocks: 9, headAgeMs: 20_000, listenOverflows: 4 },
    { time: new Date(T0 + 2 * MIN), nodeId: NODE_2, lagBlocks: 0 },
    { time: new Date(T0 + 9 * MIN), nodeId: NODE_1, lagBlocks: 50 },
  ]);
  const around = await listNodesAroundMiss(sql, {
    organizationId: ORG_ID,
    network: "fixture-net",
    from: new Date(T0),
    to: new Date(T0 + 2 * MIN),
  });
  assert.deepEqual(
    around.map((n) => [
      n.name,
      n.samples,
      n.maxLagBlocks,
      n.maxHeadAgeMs,
      n.listenOverflows,
      n.minMemAvailableShare,
      n.lastLagBlocks,
    ]),
    [
      ["node-1", 2, 9, 20_000, 7, 0.01, 9],
      ["node-2", 1, 0, null, null, null, 0],
    ],
  );

  await sql.query(`UPDATE nodes SET public_url = 'http://127.0.0.1:18091' WHERE name = 'node-1'`);
  assert.deepEqual(await listProducerSources(sql, { network: "fixture-net", organizationIds: [ORG_ID] }), [
    "http://127.0.0.1:18091",
  ]);
  assert.equal(await deleteProducer(sql, { organizationId: "other-org", id: p.id }), false);
  assert.equal(await deleteProducer(sql, { organizationId: ORG_ID, id: p.id }), true);
  assert.equal((await listProducerStatuses(sql, { organizationIds: [ORG_ID] })).length, 0);
}

describe("producers, plain PostgreSQL", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(() => db.drop());
  test("register, readings, misses, key change, history, sources", () => checks(db.sql, "plain"));
});

describe("producers, TimescaleDB", () => {
  let db: TimescaleTestDatabase;
  before(async () => {
    db = await createTimescaleTestDatabase();
  });
  after(() => db.close());
  test("producer_samples is a hypertable and answers the same", async () => {
    await checks(db.sql, "timescale");
    const { rows } = await db.sql.query(
      `SELECT count(*)::int AS n FROM timescaledb_information.hypertables WHERE hypertable_name = 'producer_samples'`,
    );
    assert.equal((rows[0] as { n: number }).n, 1);
  });
});
