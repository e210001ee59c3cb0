import { RPCPULSE_VERSION } from "@rpcpulse/config";
import { getStorageMode } from "@rpcpulse/db/migrate";
import { listRecentWorkerHeartbeats } from "@rpcpulse/db/platform";
import { type PrismaClient, type ReadReplicaStatus, type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import { timed, withTimeout } from "./with-timeout.js";

export const HealthReport = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  database: z.object({
    ok: z.boolean(),
    latencyMs: z.number(),
    mode: z.enum(["timescale", "plain"]).nullable(),
    error: z.string().optional(),
  }),
  redis: z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() }),
  /** The read replica (DATABASE_READ_URL): where reads go now and how far it is behind. */
  replica: z.object({
    configured: z.boolean(),
    serving: z.enum(["replica", "primary"]),
    lagMs: z.number().nullable(),
    lagBytes: z.number().nullable(),
    checkedAt: z.string().nullable(),
    reason: z.string().optional(),
  }),
  workers: z.array(
    z.object({
      id: z.string(),
      role: z.string(),
      lastSeenAt: z.string(),
      ageSeconds: z.number(),
      version: z.string(),
    }),
  ),
});
export type HealthReport = z.infer<typeof HealthReport>;

export interface HealthDeps {
  sql: SqlClient;
  prisma: PrismaClient;
  /** true when Redis answered PING. */
  pingRedis: () => Promise<boolean>;
  /** The read side's state (createReadDatabase); absent = no replica configured. */
  readReplica?: () => ReadReplicaStatus;
  /** Deadline per check; the whole report takes at most about this long (checks run in parallel). */
  timeoutMs?: number;
  now?: () => Date;
}

/**
 * Liveness of the app's dependencies for GET /api/health. Never throws and never takes much
 * longer than `timeoutMs`: each check has its own deadline and they run side by side.
 * "ok" needs PostgreSQL (migrated) and Redis; workers are reported, not required. A configured read
 * replica that is set aside (down or lagging past its bounds: reads on the primary) makes it
 * "degraded" too, with `replica.reason`; `isHealthServing` tells whether the app can still serve.
 */
export async function getHealth(deps: HealthDeps): Promise<HealthReport> {
  const timeoutMs = deps.timeoutMs ?? 1_500;
  const now = (deps.now ?? (() => new Date()))();

  const [database, redis, workers] = await Promise.all([
    timed(() => withTimeout(getStorageMode(deps.sql), timeoutMs, "database")),
    timed(async () => {
      const ok = await withTimeout(deps.pingRedis(), timeoutMs, "redis");
      if (!ok) throw new Error("redis did not answer PING");
      return ok;
    }),
    timed(() => withTimeout(listRecentWorkers(deps.prisma, now), timeoutMs, "worker heartbeats")),
  ]);

  const databaseOk = database.error === undefined;
  const redisOk = redis.error === undefined;
  const replica = deps.readReplica?.() ?? NO_REPLICA;
  const replicaOk = !replica.configured || replica.serving === "replica";
  return {
    status: databaseOk && redisOk && replicaOk ? "ok" : "degraded",
    version: RPCPULSE_VERSION,
    database: {
      ok: databaseOk,
      latencyMs: database.ms,
      mode: database.value ?? null,
      ...(database.error ? { error: database.error } : {}),
    },
    redis: { ok: redisOk, latencyMs: redis.ms, ...(redis.error ? { error: redis.error } : {}) },
    replica,
    workers: (workers.value ?? []).map((w) => ({
      id: w.id,
      role: w.role,
      lastSeenAt: w.lastSeenAt.toISOString(),
      ageSeconds: Math.max(0, Math.round((now.getTime() - w.lastSeenAt.getTime()) / 1000)),
      version: w.version,
    })),
  };
}

const NO_REPLICA: ReadReplicaStatus = {
  configured: false,
  serving: "primary",
  lagMs: null,
  lagBytes: null,
  checkedAt: null,
};

/**
 * Whether the app can serve (HTTP 200 from /api/health): PostgreSQL and Redis answer. A replica set
 * aside is "degraded" but serving: reads fall back to the primary.
 */
export function isHealthServing(report: HealthReport): boolean {
  return report.database.ok && report.redis.ok;
}

/** Workers seen in the last day, newest first (older rows are long-dead processes). */
async function listRecentWorkers(prisma: PrismaClient, now: Date) {
  return listRecentWorkerHeartbeats(prisma, { since: new Date(now.getTime() - 24 * 60 * 60 * 1000), limit: 50 });
}
