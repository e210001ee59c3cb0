import { AppError } from "@rpcpulse/config";
import {
  expireOtherAgentTokens,
  findOrganizationNode,
  insertAgentToken,
  listAgentTokenRows,
  revokeAgentTokenRow,
  type AgentTokenRecord,
} from "@rpcpulse/db/fleet";
import { withTransaction, type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../context.js";
import { generateAgentToken } from "./token-format.js";

/**
 * Issue, rotate, list and revoke a node's agent tokens (admins of the node's organization).
 * `notifyChanged` tells every ingest process that a token changed (the caller wires
 * @rpcpulse/queue publishAgentTokenChange: a per-token change mark read on each request, and a
 * pub/sub message), so the next request anywhere sees the change; when it is missing or fails, the
 * ingest cache TTL (≤ 30 s) still bounds how long a revoked token keeps working.
 */
export interface AgentTokenDeps {
  /** A pg Pool: rotation runs in a transaction on one of its connections. */
  sql: SqlClient & { connect(): Promise<SqlClient & { release(): void }> };
  notifyChanged?: (tokenPrefix: string) => Promise<void>;
}

export interface IssuedAgentToken {
  /** Shown once: the only time the plaintext exists outside the agent's host. */
  token: string;
  record: AgentTokenRecord;
}

const NodeRef = z.object({ nodeId: z.string().uuid() });
export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 3_600_000;

async function requireNode(deps: Pick<AgentTokenDeps, "sql">, ctx: ServiceContext, nodeId: string) {
  const node = await findOrganizationNode(deps.sql, { organizationId: ctx.organizationId, nodeId });
  if (!node) throw new AppError("NOT_FOUND", "Node not found.");
  return node;
}

/**
 * Announce changed tokens to the ingest processes. A failed announcement is not an error of the
 * change itself: the ingest cache TTL (≤ 30 s) still bounds how long the old state is served.
 */
export async function notifyAgentTokenChanges(
  deps: Pick<AgentTokenDeps, "notifyChanged">,
  prefixes: string[],
): Promise<void> {
  const notifyChanged = deps.notifyChanged;
  if (!notifyChanged) return;
  await Promise.all(prefixes.map((p) => notifyChanged(p).catch(() => undefined)));
}

/** A new token for a node; other tokens stay as they are. */
export async function createAgentToken(
  deps: AgentTokenDeps,
  ctx: ServiceContext,
  input: { nodeId: string },
): Promise<IssuedAgentToken> {
  requireRole(ctx, "admin");
  const { nodeId } = NodeRef.parse(input);
  await requireNode(deps, ctx, nodeId);
  const generated = generateAgentToken();
  const record = await insertAgentToken(deps.sql, {
    nodeId,
    prefix: generated.prefix,
    secretHash: generated.secretHash,
  });
  return { token: generated.token, record };
}

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

/** Revoke a token at once (with notifyChanged, every ingest process refuses it from its next request). */
export async function revokeAgentToken(
  deps: AgentTokenDeps,
  ctx: ServiceContext,
  input: { tokenId: string; now?: Date },
): Promise<AgentTokenRecord> {
  requireRole(ctx, "admin");
  const tokenId = z.string().uuid().safeParse(input.tokenId);
  if (!tokenId.success) throw new AppError("NOT_FOUND", "Token not found.");
  const record = await revokeAgentTokenRow(deps.sql, {
    organizationId: ctx.organizationId,
    tokenId: tokenId.data,
    now: input.now ?? new Date(),
  });
  if (!record) throw new AppError("NOT_FOUND", "Token not found.");
  await notifyAgentTokenChanges(deps, [record.prefix]);
  return record;
}

/** Token metadata of a node (never the secret or its hash). Any member may read it. */
export async function listAgentTokens(
  deps: Pick<AgentTokenDeps, "sql">,
  ctx: ServiceContext,
  input: { nodeId: string },
): Promise<AgentTokenRecord[]> {
  const parsed = NodeRef.safeParse(input);
  if (!parsed.success) throw new AppError("NOT_FOUND", "Node not found.");
  await requireNode(deps, ctx, parsed.data.nodeId);
  return listAgentTokenRows(deps.sql, { organizationId: ctx.organizationId, nodeId: parsed.data.nodeId });
}
