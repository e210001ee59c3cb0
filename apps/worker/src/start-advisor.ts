import type { Logger } from "@rpcpulse/config";
import type { PrismaClient, SqlClient } from "@rpcpulse/db/sql";
import type { QueueTarget } from "@rpcpulse/queue";
import type { Worker } from "bullmq";
import { readConsumerSettings, type ConsumedQueue, type WorkerEnv } from "./env.js";
import { createAdvisorProcessor } from "./processors/advisor.processor.js";
import { registerProcessor } from "./shell/register-processor.js";

/** The tuning advisor's consumer (its schedule is registered with the other recurring jobs). */
export function startAdvisor(
  env: WorkerEnv,
  deps: { prisma: PrismaClient; sql: SqlClient; target: QueueTarget; log: Logger },
): { workers: Worker[]; queues: ConsumedQueue[] } {
  const consumer = readConsumerSettings(env, "advisor");
  if (!consumer.enabled) {
    deps.log.info({ queue: "advisor" }, "consumer disabled by WORKER_ADVISOR_ENABLED");
    return { workers: [], queues: [] };
  }
  const processor = createAdvisorProcessor(
    { prisma: deps.prisma, sql: deps.sql },
    {
      batchSize: env.ADVISOR_BATCH_SIZE,
      verifyBatchSize: env.ADVISOR_VERIFY_BATCH_SIZE,
      windowMinutes: env.ADVISOR_WINDOW_MINUTES,
      clearAfterMinutes: env.ADVISOR_CLEAR_MINUTES,
      ...(env.ADVISOR_VERIFY_WINDOW_MINUTES !== undefined
        ? { windowMinutesOverride: env.ADVISOR_VERIFY_WINDOW_MINUTES }
        : {}),
    },
  );
  const worker = registerProcessor("advisor", processor, { target: deps.target, log: deps.log, ...consumer });
  return { workers: [worker], queues: ["advisor"] };
}
