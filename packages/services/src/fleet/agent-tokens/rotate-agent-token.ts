import { expireOtherAgentTokens, insertAgentToken, type AgentTokenRecord } from "@rpcpulse/db/fleet";
import { withTransaction } from "@rpcpulse/db/sql";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../../context.js";
import { generateAgentToken } from "../token-format.js";
import { NodeRef, requireNode, type AgentTokenDeps, type IssuedAgentToken } from "./agent-token-deps.js";
import { notifyAgentTokenChanges } from "./notify-agent-token-changes.js";

export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 3_600_000;

/**
 * A new token; the node's other live tokens stay valid until now + overlapMs (default 24 h) so
 * the agent can switch without losing a push. overlapMs 0 ends them at once.
 */
export async function rotateAgentToken(
  deps: AgentTokenDeps,
  ctx: ServiceContext,
  input: { nodeId: string; overlapMs?: number; now?: Date },
): Promise<IssuedAgentToken & { expiringPrefixes: number }> {
  requireRole(ctx, "admin");
  const { nodeId } = NodeRef.parse(input);
  const overlapMs = z
    .number()
    .int()
    .min(0)
    .max(30 * 86_400_000)
    .parse(input.overlapMs ?? DEFAULT_ROTATION_OVERLAP_MS);
  await requireNode(deps, ctx, nodeId);
  const now = input.now ?? new Date();
  const generated = generateAgentToken();
  const session = await deps.sql.connect();
  let result: { record: AgentTokenRecord; expired: string[] };
  try {
    result = await withTransaction(session, async () => {
      const record = await insertAgentToken(session, {
        nodeId,
        prefix: generated.prefix,
        secretHash: generated.secretHash,
      });
      const expired = await expireOtherAgentTokens(session, {
        nodeId,
        keepId: record.id,
        expiresAt: new Date(now.getTime() + overlapMs),
      });
      return { record, expired };
    });
  } finally {
    session.release();
  }
  await notifyAgentTokenChanges(deps, result.expired);
  return { token: generated.token, record: result.record, expiringPrefixes: result.expired.length };
}
