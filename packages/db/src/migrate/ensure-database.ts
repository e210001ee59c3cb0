import pg from "pg";

/** The database name of a postgres:// URL, and the same URL pointing at another database. */
export function parseDatabaseUrl(url: string): { database: string; withDatabase: (name: string) => string } {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  if (!database) throw new Error("DATABASE_URL names no database");
  return {
    database,
    withDatabase(name: string) {
      const copy = new URL(url);
      copy.pathname = `/${encodeURIComponent(name)}`;
      return copy.toString();
    },
  };
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Create the database named in `url` when it does not exist yet (connecting to the server's
 * `postgres` maintenance database). Returns true when it was created.
 */
export async function ensureDatabase(url: string, maintenanceDb = "postgres"): Promise<boolean> {
  const { database, withDatabase } = parseDatabaseUrl(url);
  const client = new pg.Client({ connectionString: withDatabase(maintenanceDb) });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (rows.length > 0) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(database)}`);
    } catch (error) {
      // Another process created it between our check and CREATE: fine.
      if ((error as { code?: string }).code !== "42P04") throw error;
      return false;
    }
    return true;
  } finally {
    await client.end();
  }
}
