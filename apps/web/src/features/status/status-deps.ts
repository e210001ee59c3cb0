import "server-only";
import { isAppError } from "@rpcpulse/config";
import type { StatusNotifyDeps, SubscriptionDeps } from "@rpcpulse/services/status";
import { getRuntime } from "@/server/runtime.js";
import { getAlertingDeps } from "@/features/alerting/alerts-deps.js";

/** Page reads and edits (admin): Prisma for the page tree, the SQL pool for telemetry and uptime (primary). */
export function getStatusReadDeps() {
  const { prisma, sql } = getRuntime();
  return { prisma, sql };
}

/**
 * What the public pages render from (snapshots, feeds, badges): the read replica when one is
 * healthy, else the primary. A public page may lag an edit by the replica's lag (bounded by
 * DATABASE_READ_MAX_LAG_MS) on top of its own cache.
 */
export function getStatusPublicReadDeps() {
  const { reads } = getRuntime();
  return { prisma: reads.prisma, sql: reads.sql };
}

/** Subscriptions: the delivery queue and secrets key (alerting's), Redis rate limits, link origin. */
export function getStatusWriteDeps(): SubscriptionDeps {
  const { redis, env } = getRuntime();
  return { ...getAlertingDeps(), rateLimit: redis, rateLimitPrefix: env.QUEUE_PREFIX, appBaseUrl: env.APP_BASE_URL };
}

/**
 * Incident verbs: with the queue and key, subscribers are notified; without a secrets key
 * (production without SECRETS_ENCRYPTION_KEY) incidents still publish, nobody is notified, and
 * the reason is logged.
 */
export function getStatusIncidentDeps(): Partial<StatusNotifyDeps> & { prisma: StatusNotifyDeps["prisma"] } {
  const { prisma, env, logger } = getRuntime();
  try {
    return { ...getAlertingDeps(), appBaseUrl: env.APP_BASE_URL };
  } catch (error) {
    if (!isAppError(error) || error.code !== "CONFIG") throw error;
    logger.warn({ err: error.message }, "status subscribers are not notified");
    return { prisma };
  }
}
