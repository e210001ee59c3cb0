// pingDatabase, the health checks' database probe: true while PostgreSQL answers, false (never a throw)
// when nothing listens or the pool was closed.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createSqlPool, pingDatabase } from "../src/sql/index.js";
import { createTestDatabase, freePort, type TestDatabase } from "../src/testing.js";

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db.drop();
});

test("true while PostgreSQL answers", async () => {
  assert.equal(await pingDatabase(db.pool), true);
});

test("false when nothing listens on the port, and when the pool is closed", async () => {
  const port = await freePort();
  const nowhere = createSqlPool(`postgres://postgres@127.0.0.1:${port}/postgres`, { connectionTimeoutMillis: 500 });
  try {
    assert.equal(await pingDatabase(nowhere), false);
  } finally {
    await nowhere.end();
  }
  const closed = createSqlPool(db.url);
  await closed.end();
  assert.equal(await pingDatabase(closed), false);
});
