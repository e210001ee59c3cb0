import type { PrismaClient, SqlClient } from "@rpcpulse/db";
import type { SendContext } from "@rpcpulse/notify";
import type { QueueTarget } from "@rpcpulse/queue";
import type { SecretsKey } from "./channel-secrets.js";

/** What the web adapters need: the database, the delivery queue and the channel secrets key. */
export interface AlertingDeps {
  prisma: PrismaClient;
  queue: QueueTarget;
  secretsKey: SecretsKey;
}

/** The evaluation job: also raw SQL for the time series and the app URL for links. */
export interface EvaluateAlertsDeps extends AlertingDeps {
  sql: SqlClient;
  /** Absolute origin of the web app, for "Open in RPC Pulse" links; omitted = no link. */
  appBaseUrl?: string | undefined;
}

/** The delivery job: channel senders (SSRF-safe client, pooled SMTP). */
export interface DeliverDeps {
  prisma: PrismaClient;
  secretsKey: SecretsKey;
  send: SendContext;
}
