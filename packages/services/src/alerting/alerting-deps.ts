import type { PrismaClient, SqlClient } from "@rpcpulse/db/sql";
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
  /**
   * Called after a transition's delivery rows are committed and before their jobs are queued.
   * Fault injection for the outbox test only (the worker kills itself here when
   * WORKER_FAULT_KILL_AFTER_DELIVERY_COMMIT is set); production leaves it unset.
   */
  afterDeliveriesCommitted?: ((deliveryIds: string[]) => void) | undefined;
}

/** The delivery job: channel senders (SSRF-safe client, pooled SMTP). */
export interface DeliverDeps {
  prisma: PrismaClient;
  secretsKey: SecretsKey;
  send: SendContext;
}
