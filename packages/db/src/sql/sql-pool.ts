import pg from "pg";

export type SqlPool = pg.Pool;

export interface SqlPoolOptions {
  /** Connections at most (default 5). */
  max?: number;
  /** How long to wait for a connection before failing (default 2 s). */
  connectionTimeoutMillis?: number;
  /** Called on errors of idle connections (a restarted server, say); without it they are ignored. */
  onError?: (error: Error) => void;
}

/**
 * A `pg` Pool for the raw-SQL functions of this package (a `SqlClient`, and `connect()` for
 * transactions). Apps create their pools here instead of importing `pg` themselves.
 */
export function createSqlPool(url: string, options: SqlPoolOptions = {}): SqlPool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 5,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 2_000,
  });
  pool.on("error", options.onError ?? (() => undefined));
  return pool;
}
