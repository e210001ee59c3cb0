import { z } from "zod";
import { EntityId } from "../ids.js";
import { defineQueue } from "../define-queue.js";

/**
 * Public endpoint directory work from one vantage point. `task` (default "round"):
 * - "round": probe a batch of listed endpoints (all of them, or `endpointIds`) once, bounded concurrency;
 * - "capabilities": capability checks of the endpoints whose last check is older than the cadence;
 * - "rank": network heads, scores per window and region, ranking snapshot, listing status;
 * - "heads": decide and store every network's consensus head (network_heads), which every lag is measured against;
 * - "public-heads": check the public URL of every node that has one (node_public_heads: public head vs node head);
 * - "producers": read every registered producer (Hive/Steem witnesses) from the chain (producer_latest, misses, history).
 * `endpointId` is the original single-endpoint form and still accepted (a round of one).
 * Directory endpoints have no owning organization.
 */
export const ProbePayload = z.object({
  task: z.enum(["round", "capabilities", "rank", "heads", "public-heads", "producers"]).optional(),
  endpointIds: z.array(EntityId).max(10_000).optional(),
  endpointId: EntityId.optional(),
  organizationId: EntityId.optional(),
  vantagePointId: EntityId.optional(),
});
export type ProbePayload = z.infer<typeof ProbePayload>;

export const probeQueue = defineQueue({
  name: "probe",
  jobName: "probe-endpoint",
  payload: ProbePayload,
  jobId: undefined,
  tenantOf: (p: ProbePayload) => p.organizationId,
  defaultJobOptions: {
    // A probe is a measurement at a point in time: retrying it minutes later measures something
    // else, so it is tried twice and then left to the next scheduled round.
    attempts: 2,
    backoff: { type: "fixed", delay: 2_000 },
    removeOnComplete: { count: 1_000 },
    removeOnFail: { count: 1_000, age: 24 * 3_600 },
  },
});
