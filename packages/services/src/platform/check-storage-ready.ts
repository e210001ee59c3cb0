import { getStorageMode, type StorageMode } from "@rpcpulse/db/migrate";
import { type SqlClient } from "@rpcpulse/db/sql";

/**
 * The database answers and is migrated: returns its storage mode. Used by the worker at start
 * (to log the mode) and by its /healthz; throws when PostgreSQL is unreachable or unmigrated.
 */
export async function checkStorageReady(deps: { sql: SqlClient }): Promise<StorageMode> {
  return getStorageMode(deps.sql);
}
