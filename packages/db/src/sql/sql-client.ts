/**
 * The one seam between our SQL and a database driver. A `pg` Pool, PoolClient or Client and a
 * PGlite instance all satisfy it structurally, so time-series functions take any of them.
 *
 * Functions that need one session (advisory locks, BEGIN/COMMIT: the migration runner) must be
 * given a single connection: a pg `Client`/`PoolClient`, or PGlite (always one session).
 */
export interface SqlClient {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Run `fn` inside BEGIN/COMMIT on a single-session client; ROLLBACK on error. */
export async function withTransaction<T>(sql: SqlClient, fn: () => Promise<T>): Promise<T> {
  await sql.query("BEGIN");
  try {
    const result = await fn();
    await sql.query("COMMIT");
    return result;
  } catch (error) {
    await sql.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/** True when the database answers a trivial query; false on any error (a health check never throws). */
export async function pingDatabase(sql: SqlClient): Promise<boolean> {
  try {
    await sql.query("SELECT 1");
    return true;
  } catch {
    return false;
  }
}
