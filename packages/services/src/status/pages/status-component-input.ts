import { type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import { type ServiceDeps } from "../../context.js";

const emptyToNull = (v: unknown) => (v === "" || v === undefined ? null : v);

export const ComponentInput = z.object({
  /** "node:<uuid>", "endpoint:<uuid>", "producer:<uuid>" or "consensus_client:<node uuid>". */
  ref: z
    .string()
    .regex(
      /^(node|endpoint|producer|consensus_client):[0-9a-f-]{36}$/i,
      "Pick a node, an endpoint, a producer or a consensus client.",
    ),
  displayName: z.string().trim().max(120).default(""),
  description: z.string().trim().max(500).default(""),
  groupId: z.preprocess(emptyToNull, z.string().uuid().nullable()).default(null),
  position: z.coerce.number().int().min(0).max(10_000).default(0),
});

export type ComponentKind = "node" | "endpoint" | "producer" | "consensus_client";

/** Producers are raw-SQL rows (no Prisma model): their look-ups need the pool. */
export type ComponentDeps = ServiceDeps & { sql?: SqlClient };

export const NOT_FOUND_TEXT: Record<ComponentKind, string> = {
  node: "Node not found.",
  endpoint: "Endpoint not found.",
  producer: "Producer not found.",
  consensus_client: "Node not found.",
};

export const ComponentEdit = ComponentInput.omit({ ref: true }).extend({
  displayName: z.string().trim().min(1, "A name is needed.").max(120),
});
