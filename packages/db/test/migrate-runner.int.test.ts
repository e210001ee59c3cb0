import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, describe, test } from "node:test";
import pg from "pg";
import {
  ensureDatabase,
  getStorageMode,
  MigrationChecksumError,
  NO_TRANSACTION_DIRECTIVE,
  parseDatabaseUrl,
  quoteIdent,
  runMigrations,
} from "@rpcpulse/db/migrate";
import { DEFAULT_TEST_SERVER_URL } from "../src/testing.js";

const server = parseDatabaseUrl(DEFAULT_TEST_SERVER_URL);
const created: string[] = [];
const clients: pg.Client[] = [];
const dirs: string[] = [];

/** An empty database (the runner creates everything itself) and a connected client on it. */
async function freshDatabase(): Promise<{ url: string; connect: () => Promise<pg.Client> }> {
  const name = `rpcpulse_t_${randomBytes(6).toString("hex")}`;
  const url = server.withDatabase(name);
  assert.equal(await ensureDatabase(url), true);
  assert.equal(await ensureDatabase(url), false);
  created.push(name);
  return {
    url,
    async connect() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      clients.push(client);
      return client;
    },
  };
}

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "rpcpulse-migrations-"));
  dirs.push(dir);
  writeMigrations(dir, files);
  return dir;
}

function writeMigrations(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const tables = async (c: pg.Client) =>
  (
    await c.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
  ).rows.map((r) => r.t);

describe("migration runner", () => {
  afterEach(async () => {
    while (clients.length) await clients.pop()?.end();
  });
  after(async () => {
    const admin = new pg.Client({ connectionString: DEFAULT_TEST_SERVER_URL });
    await admin.connect();
    for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await admin.end();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test("applies in order, records name/checksum/mode, and is idempotent", async () => {
    const db = await freshDatabase();
    const c = await db.connect();
    const dir = migrationsDir({
      "0002_second/migration.sql": "INSERT INTO a (v) VALUES ('it''s; fine'), ($$semi; colon$$);",
      "0001_first/migration.sql": "-- comment; with semicolon\nCREATE TABLE a (v text); /* block; comment */",
      "0001_first/plain.sql": "CREATE TABLE only_plain (id int);",
      "0001_first/timescale.sql": "CREATE TABLE only_timescale (id int);",
    });
    const logged: string[] = [];
    const first = await runMigrations(c, { dir, mode: "plain", log: (m) => logged.push(m) });
    assert.deepEqual(first, { mode: "plain", applied: ["0001_first", "0002_second"], alreadyApplied: 0 });
    assert.equal(logged[0], "storage mode: plain");
    assert.match(logged[1] ?? "", /^applied 0001_first \(migration\.sql \+ plain\.sql, 2 statements, \d+ ms\)$/);
    assert.deepEqual(await tables(c), ["_rpcpulse_meta", "_rpcpulse_migrations", "a", "only_plain"]);
    assert.deepEqual((await c.query("SELECT v FROM a ORDER BY v")).rows, [{ v: "it's; fine" }, { v: "semi; colon" }]);
    const recorded = await c.query(
      "SELECT name, mode, length(checksum) AS len FROM _rpcpulse_migrations ORDER BY name",
    );
    assert.deepEqual(recorded.rows, [
      { name: "0001_first", mode: "plain", len: 64 },
      { name: "0002_second", mode: "plain", len: 64 },
    ]);
    const second = await runMigrations(c, { dir, mode: "auto" });
    assert.deepEqual(second, { mode: "plain", applied: [], alreadyApplied: 2 });
    assert.equal((await c.query("SELECT count(*)::int AS n FROM a")).rows[0].n, 2);
    assert.equal(await getStorageMode(c), "plain");
  });

  test("refuses when an applied migration changed, and names it", async () => {
    const db = await freshDatabase();
    const c = await db.connect();
    const dir = migrationsDir({ "0001_first/migration.sql": "CREATE TABLE a (v text);" });
    await runMigrations(c, { dir, mode: "plain" });
    writeMigrations(dir, {
      "0001_first/migration.sql": "CREATE TABLE a (v text, w int);",
      "0002_next/migration.sql": "CREATE TABLE b (id int);",
    });
    await assert.rejects(runMigrations(c, { dir, mode: "plain" }), (error: unknown) => {
      assert.ok(error instanceof MigrationChecksumError);
      assert.equal(error.migration, "0001_first");
      assert.match(error.message, /applied migrations must never change/);
      return true;
    });
    assert.deepEqual(await tables(c), ["_rpcpulse_meta", "_rpcpulse_migrations", "a"]);
  });

  test("a failing migration rolls back entirely and is not recorded", async () => {
    const db = await freshDatabase();
    const c = await db.connect();
    const dir = migrationsDir({ "0001_bad/migration.sql": "CREATE TABLE a (v text);\nSELECT 1/0;" });
    await assert.rejects(runMigrations(c, { dir, mode: "plain" }), /0001_bad, statement 2: division by zero/);
    assert.deepEqual(await tables(c), ["_rpcpulse_meta", "_rpcpulse_migrations"]);
    assert.equal((await c.query("SELECT count(*)::int AS n FROM _rpcpulse_migrations")).rows[0].n, 0);
  });

  test("no-transaction migrations run statement by statement (CREATE INDEX CONCURRENTLY)", async () => {
    const db = await freshDatabase();
    const c = await db.connect();
    const dir = migrationsDir({
      "0001_table/migration.sql": "CREATE TABLE a (v text);",
      "0002_index/migration.sql": `${NO_TRANSACTION_DIRECTIVE}\nCREATE INDEX CONCURRENTLY IF NOT EXISTS a_v_idx ON a (v);`,
    });
    const report = await runMigrations(c, { dir, mode: "plain" });
    assert.deepEqual(report.applied, ["0001_table", "0002_index"]);
    assert.equal((await c.query("SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'a_v_idx'")).rows[0].n, 1);
  });

  test("a database keeps its storage mode; timescale is refused where unavailable", async () => {
    const db = await freshDatabase();
    const c = await db.connect();
    const dir = migrationsDir({ "0001_first/migration.sql": "CREATE TABLE a (v text);" });
    await assert.rejects(runMigrations(c, { dir, mode: "timescale" }), /timescaledb extension is not available/);
    const auto = await runMigrations(c, { dir });
    assert.equal(auto.mode, "plain"); // this server has no TimescaleDB
    await assert.rejects(runMigrations(c, { dir, mode: "timescale" }), /migrated in plain mode/);
  });

  test("concurrent runners: one applies, the other waits and finds nothing to do", async () => {
    const db = await freshDatabase();
    const [a, b] = await Promise.all([db.connect(), db.connect()]);
    const reports = await Promise.all([runMigrations(a, { mode: "plain" }), runMigrations(b, { mode: "plain" })]);
    const applied = reports.map((r) => r.applied.length).sort();
    assert.equal(applied[0], 0);
    assert.ok((applied[1] ?? 0) >= 2);
    const { rows } = await a.query(
      "SELECT name, count(*)::int AS n FROM _rpcpulse_migrations GROUP BY name ORDER BY name",
    );
    assert.ok(rows.every((r) => r.n === 1));
    assert.deepEqual(rows.map((r) => r.name).slice(0, 2), ["0001_init", "0002_timeseries"]);
  });
});
