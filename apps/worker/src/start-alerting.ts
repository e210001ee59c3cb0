import type { Logger } from "@rpcpulse/config";
import type { PrismaClient, SqlClient } from "@rpcpulse/db/sql";
import { createMailer, type Mailer } from "@rpcpulse/notify";
import { createSafeHttpClient } from "@rpcpulse/prober";
import { NOTIFY_ATTEMPTS, type QueueTarget } from "@rpcpulse/queue";
import { resolveSecretsKey } from "@rpcpulse/services/alerting";
import type { Worker } from "bullmq";
import { readConsumerSettings, type ConsumedQueue, type WorkerEnv } from "./env.js";
import { createAlertsProcessor } from "./processors/alerts.processor.js";
import { createNotifyProcessor } from "./processors/notify.processor.js";
import { registerProcessor } from "./shell/register-processor.js";

export interface RunningAlerting {
  workers: Worker[];
  queues: ConsumedQueue[];
  close: () => Promise<void>;
}

/** The alerts (evaluation, outbox sweep) and notify (delivery) consumers, with the pooled SMTP transport. */
export function startAlerting(
  env: WorkerEnv,
  deps: { prisma: PrismaClient; sql: SqlClient; target: QueueTarget; log: Logger },
): RunningAlerting {
  const { key, derived } = resolveSecretsKey(env);
  if (derived)
    deps.log.warn(
      "SECRETS_ENCRYPTION_KEY is not set: channel secrets use a key derived from DATABASE_URL (dev/demo only)",
    );
  const workers: Worker[] = [];
  const queues: ConsumedQueue[] = [];
  let mailer: Mailer | null = null;

  const alerts = readConsumerSettings(env, "alerts");
  if (alerts.enabled) {
    const processor = createAlertsProcessor(
      {
        prisma: deps.prisma,
        sql: deps.sql,
        queue: deps.target,
        secretsKey: key,
        appBaseUrl: env.APP_BASE_URL,
        // Fault injection (outbox test): die like kill -9 between the commit and the enqueue.
        afterDeliveriesCommitted: env.WORKER_FAULT_KILL_AFTER_DELIVERY_COMMIT
          ? () => process.kill(process.pid, "SIGKILL")
          : undefined,
      },
      { graceMs: env.ALERT_DELIVERY_SWEEP_GRACE_MS, limit: env.ALERT_DELIVERY_SWEEP_BATCH },
    );
    workers.push(registerProcessor("alerts", processor, { target: deps.target, log: deps.log, ...alerts }));
    queues.push("alerts");
  } else deps.log.info({ queue: "alerts" }, "consumer disabled by WORKER_ALERTS_ENABLED");

  const notify = readConsumerSettings(env, "notify");
  if (notify.enabled) {
    mailer = env.SMTP_URL
      ? createMailer({
          url: env.SMTP_URL,
          from: env.SMTP_FROM,
          requireTls: env.SMTP_REQUIRE_TLS,
          rejectUnauthorized: env.SMTP_TLS_REJECT_UNAUTHORIZED,
        })
      : null;
    if (!mailer) deps.log.info("SMTP_URL is not set: email deliveries fail with 'SMTP is not configured'");
    const client = createSafeHttpClient({
      allowPrivate: env.NOTIFY_ALLOW_PRIVATE,
      timeoutMs: env.NOTIFY_TIMEOUT_MS,
      userAgent: "rpcpulse-notify/0.1",
    });
    const processor = createNotifyProcessor(
      { prisma: deps.prisma, secretsKey: key, send: { client, mailer, telegramApiBase: env.TELEGRAM_API_BASE } },
      NOTIFY_ATTEMPTS,
    );
    workers.push(registerProcessor("notify", processor, { target: deps.target, log: deps.log, ...notify }));
    queues.push("notify");
  } else deps.log.info({ queue: "notify" }, "consumer disabled by WORKER_NOTIFY_ENABLED");

  return {
    workers,
    queues,
    close: async () => {
      mailer?.close();
    },
  };
}
