import "server-only";
import { resolveSecretsKey, type SubscriptionDeps } from "@rpcpulse/services";
import { getRuntime } from "../../server/runtime.js";

/** Public page reads: Prisma for the page tree, the SQL pool for telemetry and uptime. */
export function getStatusReadDeps() {
  const { prisma, sql } = getRuntime();
  return { prisma, sql };
}

/** Subscriptions and notifications: the delivery queue, the secrets key, Redis rate limits. */
export function getStatusWriteDeps(): SubscriptionDeps {
  const { prisma, redis, env } = getRuntime();
  return {
    prisma,
    queue: { connection: redis, prefix: env.QUEUE_PREFIX },
    secretsKey: resolveSecretsKey(env).key,
    rateLimit: redis,
    rateLimitPrefix: env.QUEUE_PREFIX,
    appBaseUrl: env.APP_BASE_URL,
  };
}
