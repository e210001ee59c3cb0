import "server-only";
import { publishAgentTokenChange } from "@rpcpulse/queue";
import { getRuntime } from "@/server/runtime.js";

/** What the node and token services need: Prisma, the SQL pool, and the token-change channel. */
export function getFleetDeps() {
  const { prisma, sql, redis, env } = getRuntime();
  return {
    prisma,
    sql,
    /** Ingest processes drop their cached copy of a rotated or revoked token at once. */
    notifyChanged: (tokenPrefix: string) => publishAgentTokenChange(redis, env.QUEUE_PREFIX, tokenPrefix),
  };
}
