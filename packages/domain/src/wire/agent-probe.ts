import { z } from "zod";

/**
 * Opt-in vantage probing (wire format v1, additive): an agent whose operator enabled it probes the
 * public endpoint list of its chain(s) from the node's location and sends the results with its
 * batches. Old agents send neither field and stay valid.
 */
export const VANTAGE_LIMITS = {
  /** Probe results per batch; the agent keeps the newest ones when it has more. */
  maxProbesPerBatch: 200,
  maxMessageLength: 256,
} as const;

/** Region label chosen by the operator, e.g. "eu-west" or "us-east-1" (lower case, digits, dashes). */
export const vantageRegionSchema = z
  .string()
  .min(2)
  .max(32)
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/, "lower-case letters, digits and dashes, e.g. eu-west");

const millis = z.number().nonnegative().max(600_000);
const timestamp = z.iso.datetime({ offset: true });

export const probePhasesSchema = z.object({
  dnsMs: millis,
  connectMs: millis,
  tlsMs: millis,
  /** From the start of the request to the first response byte. */
  firstByteMs: millis,
  totalMs: millis,
});

export const agentProbeSchema = z.object({
  /** Id of the listed public endpoint, as /api/v1/chains/<network>/endpoints returned it. */
  endpointId: z.uuid(),
  startedAt: timestamp,
  ok: z.boolean(),
  httpStatus: z.number().int().min(0).max(999).nullable(),
  /** Machine class of the failure ("timeout", "dns", "http_status", "rpc_error", ...); null when ok. */
  errorClass: z.string().min(1).max(64).nullable(),
  errorMessage: z.string().max(VANTAGE_LIMITS.maxMessageLength).nullable(),
  rateLimited: z.boolean(),
  responseBytes: z.number().int().nonnegative().max(2_147_483_647),
  headBlock: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable(),
  headTime: timestamp.nullable(),
  finalizedBlock: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable(),
  phases: probePhasesSchema.nullable(),
});

export const vantageGroupSchema = z.object({
  region: vantageRegionSchema,
  probes: z.array(agentProbeSchema).max(VANTAGE_LIMITS.maxProbesPerBatch),
});

export type AgentProbe = z.infer<typeof agentProbeSchema>;
export type VantageGroup = z.infer<typeof vantageGroupSchema>;
export type ProbePhases = z.infer<typeof probePhasesSchema>;
