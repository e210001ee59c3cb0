import { z } from "zod";
import { withTransaction, type SqlClient } from "../sql/sql-client.js";
import { defaultMigrationsDir, loadMigrations, type PlannedMigration } from "./migration-files.js";
import {
  ensureBookkeepingTables,
  MIGRATIONS_TABLE,
  recordStorageMode,
  resolveStorageMode,
  type StorageMode,
  type StorageModeSetting,
} from "./storage-mode.js";

/** Advisory lock key held while migrating (any constant unique to this purpose). */
export const MIGRATION_LOCK_KEY = 7_220_401_551;

export class MigrationChecksumError extends Error {
  constructor(
    readonly migration: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      `migration ${migration} was already applied with checksum ${expected.slice(0, 12)}… but its files now hash to ` +
        `${actual.slice(0, 12)}…; applied migrations must never change: add a new migration instead`,
    );
    this.name = "MigrationChecksumError";
  }
}

export interface MigrationLog {
  (message: string, fields?: Record<string, unknown>): void;
}

export interface RunMigrationsOptions {
  /** auto | timescale | plain (default auto). */
  mode?: StorageModeSetting;
  /** Folder of `<NNNN_name>/` migrations; default `<repo>/prisma/migrations`. */
  dir?: string;
  log?: MigrationLog;
}

export interface MigrationReport {
  mode: StorageMode;
  applied: string[];
  alreadyApplied: number;
}

const AppliedRow = z.object({ name: z.string(), checksum: z.string() });

/**
 * Apply pending migrations in name order. `sql` must be ONE session (pg Client/PoolClient or
 * PGlite): it holds a session advisory lock, so concurrent runners wait for each other and the
 * second one finds nothing to do. Refuses to run when an applied migration's files changed.
 */
export async function runMigrations(sql: SqlClient, options: RunMigrationsOptions = {}): Promise<MigrationReport> {
  const log: MigrationLog = options.log ?? (() => undefined);
  await sql.query("SELECT pg_advisory_lock($1::bigint)", [MIGRATION_LOCK_KEY]);
  try {
    await ensureBookkeepingTables(sql);
    const mode = await resolveStorageMode(sql, options.mode ?? "auto");
    if (mode === "timescale") await sql.query("CREATE EXTENSION IF NOT EXISTS timescaledb");
    await recordStorageMode(sql, mode);
    log(`storage mode: ${mode}`, { mode, requested: options.mode ?? "auto" });

    const migrations = loadMigrations(options.dir ?? defaultMigrationsDir(), mode);
    const { rows } = await sql.query(`SELECT name, checksum FROM ${MIGRATIONS_TABLE}`);
    const applied = new Map(rows.map((r) => AppliedRow.parse(r)).map((r) => [r.name, r.checksum]));
    for (const m of migrations) {
      const checksum = applied.get(m.name);
      if (checksum !== undefined && checksum !== m.checksum)
        throw new MigrationChecksumError(m.name, checksum, m.checksum);
    }
    const onDisk = new Set(migrations.map((m) => m.name));
    for (const name of applied.keys()) {
      if (!onDisk.has(name))
        log(`applied migration ${name} is not on disk (newer code ran here?)`, { migration: name });
    }

    const report: MigrationReport = { mode, applied: [], alreadyApplied: applied.size };
    for (const m of migrations) {
      if (applied.has(m.name)) continue;
      const started = performance.now();
      await applyMigration(sql, m, mode);
      report.applied.push(m.name);
      const ms = Math.round(performance.now() - started);
      log(
        `applied ${m.name} (${m.files.join(" + ") || "no files for this mode"}, ${m.statements.length} statements, ${ms} ms)`,
        {
          migration: m.name,
          ms,
        },
      );
    }
    if (report.applied.length === 0) log("database is up to date", { migrations: migrations.length });
    return report;
  } finally {
    await sql.query("SELECT pg_advisory_unlock($1::bigint)", [MIGRATION_LOCK_KEY]);
  }
}

async function applyMigration(sql: SqlClient, m: PlannedMigration, mode: StorageMode): Promise<void> {
  const record = () =>
    sql.query(`INSERT INTO ${MIGRATIONS_TABLE} (name, checksum, mode, statements) VALUES ($1, $2, $3, $4)`, [
      m.name,
      m.checksum,
      mode,
      m.statements.length,
    ]);
  const runAll = async () => {
    for (const [index, statement] of m.statements.entries()) {
      try {
        await sql.query(statement);
      } catch (error) {
        const preview = statement.length > 200 ? `${statement.slice(0, 200)}…` : statement;
        throw new Error(`migration ${m.name}, statement ${index + 1}: ${(error as Error).message}\n${preview}`, {
          cause: error,
        });
      }
    }
  };
  if (m.transactional) {
    await withTransaction(sql, async () => {
      await runAll();
      await record();
    });
  } else {
    await runAll();
    await record();
  }
}
