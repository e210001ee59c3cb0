import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import type { StorageMode } from "./migration-files.js";

export type { StorageMode } from "./migration-files.js";
export type StorageModeSetting = "auto" | StorageMode;

/** Bookkeeping tables of the runner; not Prisma models. */
export const META_TABLE = "_rpcpulse_meta";
export const MIGRATIONS_TABLE = "_rpcpulse_migrations";

export const StorageModeSchema = z.enum(["timescale", "plain"]);

export async function ensureBookkeepingTables(sql: SqlClient): Promise<void> {
  await sql.query(`CREATE TABLE IF NOT EXISTS ${META_TABLE} (
    key text PRIMARY KEY,
    value text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`);
  await sql.query(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
    name text PRIMARY KEY,
    checksum text NOT NULL,
    mode text NOT NULL,
    statements integer NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
}

/** The storage mode recorded by the migration runner; throws when the database was never migrated. */
export async function getStorageMode(sql: SqlClient): Promise<StorageMode> {
  const recorded = await readRecordedMode(sql);
  if (!recorded) throw new Error("database is not migrated: no storage mode recorded (run npm run db:migrate)");
  return recorded;
}

export async function readRecordedMode(sql: SqlClient): Promise<StorageMode | null> {
  const { rows } = await sql.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [META_TABLE]);
  if (!z.object({ present: z.boolean() }).parse(rows[0]).present) return null;
  const result = await sql.query(`SELECT value FROM ${META_TABLE} WHERE key = 'storage_mode'`);
  const row = result.rows[0];
  return row ? StorageModeSchema.parse(z.object({ value: z.string() }).parse(row).value) : null;
}

export async function isTimescaleAvailable(sql: SqlClient): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'timescaledb') AS available`,
  );
  return z.object({ available: z.boolean() }).parse(rows[0]).available;
}

/**
 * Decide the mode: a mode already recorded in the database wins (the mode of a database never
 * changes; asking for the other one explicitly is an error). Otherwise `auto` means TimescaleDB
 * when the extension is available to this server, else plain PostgreSQL.
 */
export async function resolveStorageMode(sql: SqlClient, requested: StorageModeSetting): Promise<StorageMode> {
  const recorded = await readRecordedMode(sql);
  if (recorded) {
    if (requested !== "auto" && requested !== recorded) {
      throw new Error(
        `STORAGE_MODE=${requested} but this database was migrated in ${recorded} mode; ` +
          `a database keeps its mode (use STORAGE_MODE=auto or ${recorded})`,
      );
    }
    return recorded;
  }
  if (requested === "plain") return "plain";
  const available = await isTimescaleAvailable(sql);
  if (requested === "timescale" && !available) {
    throw new Error("STORAGE_MODE=timescale but the timescaledb extension is not available on this server");
  }
  return available ? "timescale" : "plain";
}

export async function recordStorageMode(sql: SqlClient, mode: StorageMode): Promise<void> {
  await sql.query(
    `INSERT INTO ${META_TABLE} (key, value) VALUES ('storage_mode', $1)
     ON CONFLICT (key) DO NOTHING`,
    [mode],
  );
}
