// The ranking job's snapshot writer (beginRankingWrite): snapshots queued while the next is computed
// land together on commit, a reader on another session sees the old ones until then, and a snapshot
// whose statement fails (or a rollback, or a throw inside withRankingWrite) leaves every previous
// snapshot as it was.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import {
  beginRankingWrite,
  insertPublicEndpoints,
  replaceEndpointRankingSets,
  type EndpointRankingRow,
  type RankingKey,
  withRankingWrite,
} from "../src/directory/index.js";
import { createTestDatabase, type TestDatabase } from "../src/testing.js";

let db: TestDatabase;
let ids: string[] = [];
const NETWORK = "hive";
const KEYS: RankingKey[] = [
  { network: NETWORK, window: "24h", region: "all" },
  { network: NETWORK, window: "7d", region: "all" },
  { network: NETWORK, window: "1h", region: "eu-central" },
];

function rowsOf(endpoints: readonly string[], score: number): EndpointRankingRow[] {
  return endpoints.map((endpointId, i) => ({
    endpointId,
    rank: i + 1,
    score: score - i,
    status: "healthy",
    samples: 100,
    okSamples: 99,
    p50Ms: 40 + i,
    p95Ms: 90 + i,
    lagBlocks: 0,
    availability: 0.99,
    headRegressions: 0,
    components: { latency: 0.5, note: `round ${score}` },
  }));
}

/** Every stored snapshot as "window/region: endpoint@score, ..." (read on its own session). */
async function readSnapshots(): Promise<string[]> {
  const { rows } = await db.pool.query<{ key: string; row: string }>(
    `SELECT "window" || '/' || region AS key, string_agg(endpoint_id || '@' || score, ',' ORDER BY rank) AS row
     FROM endpoint_rankings WHERE network = $1 GROUP BY 1 ORDER BY 1`,
    [NETWORK],
  );
  return rows.map((r) => `${r.key}: ${r.row}`);
}

before(async () => {
  db = await createTestDatabase();
  const inserted = await insertPublicEndpoints(
    db.pool,
    [1, 2, 3].map((n) => ({
      network: NETWORK,
      family: "hive" as const,
      url: `https://api${n}.example.org`,
      name: `api${n}`,
      status: "active" as const,
    })),
  );
  ids = inserted as string[];
  const client = await db.pool.connect();
  try {
    await replaceEndpointRankingSets(
      client,
      KEYS.map((key) => ({ key, rows: rowsOf(ids, 90) })),
      new Date(),
    );
  } finally {
    client.release();
  }
});
after(async () => {
  await db?.drop();
});

test("queued snapshots land together on commit; until then another session reads the old ones", async () => {
  const old = await readSnapshots();
  assert.equal(old.length, 3);
  const client = await db.pool.connect();
  try {
    const writer = await beginRankingWrite(client, new Date());
    // The second endpoint leaves every snapshot: its rows go, the others are updated in place.
    for (const key of KEYS) writer.add(key, rowsOf([ids[0]!, ids[2]!], 80));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(await readSnapshots(), old, "nothing visible before the commit");
    await writer.commit();
  } finally {
    client.release();
  }
  const now = await readSnapshots();
  assert.deepEqual(
    now,
    ["1h/eu-central", "24h/all", "7d/all"].map((k) => `${k}: ${ids[0]}@80,${ids[2]}@79`),
  );
});

test("a snapshot whose statement fails fails the commit and leaves every snapshot as it was", async () => {
  const before = await readSnapshots();
  const client = await db.pool.connect();
  try {
    const writer = await beginRankingWrite(client, new Date());
    writer.add(KEYS[0]!, rowsOf(ids, 70));
    // An endpoint that does not exist: the foreign key refuses it inside the database.
    writer.add(KEYS[1]!, rowsOf([randomUUID()], 70));
    writer.add(KEYS[2]!, rowsOf(ids, 70));
    await assert.rejects(writer.commit(), /foreign key/);
    assert.deepEqual(await readSnapshots(), before);
    // The session is usable again (rolled back, not left in an aborted transaction).
    assert.equal((await client.query("SELECT 1 AS one")).rows[0].one, 1);
  } finally {
    client.release();
  }
});

test("a row that fails its check throws from add; rollback keeps the old snapshots", async () => {
  const before = await readSnapshots();
  const client = await db.pool.connect();
  try {
    const writer = await beginRankingWrite(client, new Date());
    writer.add(KEYS[0]!, rowsOf(ids, 60));
    assert.throws(() => writer.add(KEYS[1]!, [{ ...rowsOf(ids, 60)[0]!, score: 140 }]));
    await writer.rollback();
    await assert.rejects(writer.commit(), /already ended/);
    assert.deepEqual(await readSnapshots(), before);
  } finally {
    client.release();
  }
});

test("withRankingWrite: a throw of the caller's own, after snapshots were queued, rolls them all back", async () => {
  const before = await readSnapshots();
  const client = await db.pool.connect();
  try {
    await assert.rejects(
      withRankingWrite(client, new Date(), async (writer) => {
        writer.add(KEYS[0]!, rowsOf(ids, 50));
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error("scoring failed");
      }),
      /scoring failed/,
    );
  } finally {
    client.release();
  }
  assert.deepEqual(await readSnapshots(), before);
});
