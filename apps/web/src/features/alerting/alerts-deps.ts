import "server-only";
import { resolveSecretsKey, type AlertingDeps } from "@rpcpulse/services/alerting";
import { getRuntime } from "@/server/runtime.js";

const holder = globalThis as typeof globalThis & { __rpcpulseSecretsKey?: AlertingDeps["secretsKey"] };

/** Prisma, the delivery queue (shared Redis connection) and the channel secrets key. */
export function getAlertingDeps(): AlertingDeps {
  const { prisma, redis, env, logger } = getRuntime();
  if (!holder.__rpcpulseSecretsKey) {
    const { key, derived } = resolveSecretsKey(env);
    if (derived)
      logger.warn(
        "SECRETS_ENCRYPTION_KEY is not set: channel secrets use a key derived from DATABASE_URL (dev/demo only)",
      );
    holder.__rpcpulseSecretsKey = key;
  }
  return { prisma, queue: { connection: redis, prefix: env.QUEUE_PREFIX }, secretsKey: holder.__rpcpulseSecretsKey };
}
