import { AppError } from "@rpcpulse/config";
import { findOrganizationNode, type AgentTokenRecord } from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import type { ServiceContext } from "../../context.js";

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

export const NodeRef = z.object({ nodeId: z.string().uuid() });

export async function requireNode(deps: Pick<AgentTokenDeps, "sql">, ctx: ServiceContext, nodeId: string) {
  const node = await findOrganizationNode(deps.sql, { organizationId: ctx.organizationId, nodeId });
  if (!node) throw new AppError("NOT_FOUND", "Node not found.");
  return node;
}
