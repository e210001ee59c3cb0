import { randomBytes } from "node:crypto";
import type { RedisConnection } from "./connection.js";

/**
 * Agent-token changes (rotation, revocation, a deleted node) reach every ingest process two ways:
 * a mark per token, a Redis key the ingest API reads on each request for that token (so the next
 * request anywhere sees the change, even in a process that missed the message), and a pub/sub
 * message that drops the cached copy at once. The mark outlives any cached copy: the ingest cache
 * serves an entry at most INGEST_TOKEN_STALE_IF_ERROR_MS (≤ 1 h) past its last database read.
 */
export const AGENT_TOKEN_CHANGE_MARK_TTL_MS = 2 * 3_600_000;

export function agentTokenChannel(prefix: string): string {
  return `${prefix}:agent-tokens:changed`;
}

export function agentTokenChangeMarkKey(prefix: string, tokenPrefix: string): string {
  return `${prefix}:agent-tokens:changed:${tokenPrefix}`;
}

/** The token's change mark (a random id per change), or null when it has not changed lately. */
export async function readAgentTokenChangeMark(
  connection: RedisConnection,
  prefix: string,
  tokenPrefix: string,
): Promise<string | null> {
  return connection.get(agentTokenChangeMarkKey(prefix, tokenPrefix));
}

/** Mark first, then publish: a process that reads the mark after this returns sees the change. */
export async function publishAgentTokenChange(
  connection: RedisConnection,
  prefix: string,
  tokenPrefix: string,
): Promise<void> {
  const mark = `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
  await connection.set(agentTokenChangeMarkKey(prefix, tokenPrefix), mark, "PX", AGENT_TOKEN_CHANGE_MARK_TTL_MS);
  await connection.publish(agentTokenChannel(prefix), tokenPrefix);
}
