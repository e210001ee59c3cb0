import { createPrismaClient, type PrismaClient } from "./client.js";
import { isDatabaseUnavailableError } from "./database-errors.js";
import type { SqlClient } from "./sql-client.js";
import { createSqlPool, type SqlPool } from "./sql-pool.js";
import { readReplicaLag } from "./replica-lag.js";

/** Where reads go now, and why. */
export interface ReadReplicaStatus {
  /** DATABASE_READ_URL is set. */
  configured: boolean;
  /** "replica" while it answers within the bounds; "primary" otherwise (and when none is configured). */
  serving: "replica" | "primary";
  lagMs: number | null;
  lagBytes: number | null;
  /** ISO time of the last completed check; null before the first. */
  checkedAt: string | null;
  /** Why reads are on the primary although a replica is configured. */
  reason?: string;
}

export interface ReadDatabaseOptions {
  /** DATABASE_READ_URL; undefined = reads use the primary's clients, nothing is checked. */
  url: string | undefined;
  maxLagMs: number;
  maxLagBytes: number;
  checkIntervalMs: number;
  /** Connections of the replica pool (default 5). */
  poolMax?: number;
  /** Told when `serving` changes (logs, metrics). */
  onChange?: (status: ReadReplicaStatus) => void;
}

/**
 * The read side of the database: `sql` and `prisma` route to the replica while it is healthy and to
 * the primary otherwise. A query that finds the replica away is answered by the primary at once and
 * the replica is set aside until a check finds it back within the bounds.
 */
export interface ReadDatabase {
  sql: SqlClient;
  prisma: PrismaClient;
  status(): ReadReplicaStatus;
  /** Check now (the timer does it every checkIntervalMs); never throws. */
  refresh(): Promise<ReadReplicaStatus>;
  close(): Promise<void>;
}

export function createReadDatabase(
  primary: { sql: SqlClient; prisma: PrismaClient },
  options: ReadDatabaseOptions,
): ReadDatabase {
  const url = options.url;
  if (!url) {
    const status: ReadReplicaStatus = {
      configured: false,
      serving: "primary",
      lagMs: null,
      lagBytes: null,
      checkedAt: null,
    };
    return {
      sql: primary.sql,
      prisma: primary.prisma,
      status: () => status,
      refresh: async () => status,
      close: async () => {},
    };
  }

  const pool: SqlPool = createSqlPool(url, { max: options.poolMax ?? 5, connectionTimeoutMillis: 1_000 });
  const replicaPrisma = createPrismaClient(url);
  let status: ReadReplicaStatus = {
    configured: true,
    serving: "primary",
    lagMs: null,
    lagBytes: null,
    checkedAt: null,
    reason: "not checked yet",
  };
  const update = (next: ReadReplicaStatus): ReadReplicaStatus => {
    const changed = next.serving !== status.serving;
    status = next;
    if (changed) options.onChange?.(next);
    return next;
  };
  const setAside = (error: unknown): void => {
    update({ ...status, serving: "primary", reason: `replica unavailable: ${describe(error)}` });
  };

  const refresh = async (): Promise<ReadReplicaStatus> => {
    const checkedAt = new Date().toISOString();
    try {
      const lag = await readReplicaLag(primary.sql, pool);
      const reason = !lag.inRecovery
        ? "the read URL is not a replica (not in recovery)"
        : lag.lagMs > options.maxLagMs
          ? `replica lag ${lag.lagMs} ms is past DATABASE_READ_MAX_LAG_MS (${options.maxLagMs})`
          : lag.lagBytes !== null && lag.lagBytes > options.maxLagBytes
            ? `replica lag ${lag.lagBytes} bytes is past DATABASE_READ_MAX_LAG_BYTES (${options.maxLagBytes})`
            : undefined;
      return update({
        configured: true,
        serving: reason ? "primary" : "replica",
        lagMs: lag.lagMs,
        lagBytes: lag.lagBytes,
        checkedAt,
        ...(reason ? { reason } : {}),
      });
    } catch (error) {
      return update({
        configured: true,
        serving: "primary",
        lagMs: null,
        lagBytes: null,
        checkedAt,
        reason: `replica unavailable: ${describe(error)}`,
      });
    }
  };

  const sql: SqlClient = {
    async query(text, params) {
      if (status.serving !== "replica") return primary.sql.query(text, params);
      try {
        return await pool.query(text, params);
      } catch (error) {
        if (!isDatabaseUnavailableError(error)) throw error;
        setAside(error);
        return primary.sql.query(text, params);
      }
    },
  };

  const fallbackPrisma = replicaPrisma.$extends({
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          try {
            return await query(args);
          } catch (error) {
            if (!isDatabaseUnavailableError(error)) throw error;
            setAside(error);
            const delegate = (primary.prisma as unknown as Record<string, Record<string, (a: unknown) => unknown>>)[
              model.charAt(0).toLowerCase() + model.slice(1)
            ];
            const run = delegate?.[operation];
            if (!run) throw error;
            return run.call(delegate, args);
          }
        },
      },
    },
  }) as unknown as PrismaClient;
  // Property reads resolve against whichever client serves now: `prisma.node.findMany` picks its
  // delegate at call time, so a set-aside replica stops serving from the next call on.
  const prisma = new Proxy(primary.prisma, {
    get(_target, property) {
      const client = status.serving === "replica" ? fallbackPrisma : primary.prisma;
      const value: unknown = Reflect.get(client, property, client);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(client) : value;
    },
  });

  const timer = setInterval(() => void refresh(), options.checkIntervalMs);
  timer.unref();
  void refresh();

  return {
    sql,
    prisma,
    status: () => status,
    refresh,
    async close() {
      clearInterval(timer);
      await Promise.allSettled([pool.end(), replicaPrisma.$disconnect()]);
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
