import { z } from "zod";
import { WIRE_LIMITS, agentSampleSchema } from "./agent-sample.js";
import { vantageGroupSchema } from "./agent-probe.js";

/** Bumped on incompatible changes; the ingest API rejects versions it does not know. */
export const WIRE_FORMAT_VERSION = 1;

/**
 * What the agent POSTs (gzip JSON) to the ingest API. `batchSeq` increases by one per batch
 * and is persisted by the agent, so the server can detect gaps and replays. Idempotency key:
 * (the token's node, `installId`, `batchSeq`); for agents without `installId`, (node, time of the
 * first sample, `batchSeq`), so a reinstalled agent whose numbering restarted is not mistaken for
 * a replay either way.
 */
export const agentBatchSchema = z.object({
  wireVersion: z.literal(WIRE_FORMAT_VERSION),
  agent: z.object({
    version: z.string().min(1).max(32),
    hostname: z.string().min(1).max(253),
  }),
  nodeId: z.string().min(1).max(64).optional(),
  batchSeq: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  /**
   * Random id of this agent install, created once and kept in its state directory next to the
   * batch sequence; a new state directory (reinstall) means a new id and numbering from 1.
   * Optional: agents before this field omit it.
   */
  installId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, "must be 16-64 of letters, digits, '_' or '-'")
    .optional(),
  sentAt: z.iso.datetime({ offset: true }),
  samples: z.array(agentSampleSchema).min(1).max(WIRE_LIMITS.maxSamplesPerBatch),
  /** Opt-in: probes of the public endpoint list from this node's location (absent on older agents). */
  vantage: vantageGroupSchema.optional(),
});

export type AgentBatch = z.infer<typeof agentBatchSchema>;

/** The JSON Schema published with the agent (apps/agent/wire-format.schema.json). */
export function buildWireFormatJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(agentBatchSchema, { target: "draft-2020-12" }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    $id: "https://rpcpulse.dev/schemas/agent-batch.v1.json",
    title: "RPC Pulse agent batch",
    description: `rpcpulse-agent wire format v${WIRE_FORMAT_VERSION}; generated from packages/domain/src/wire (zod), do not edit.`,
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$schema")),
  };
}
