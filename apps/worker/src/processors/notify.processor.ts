import { deliverNotification, type DeliverDeps } from "@rpcpulse/services/alerting";
import type { Processor } from "../shell/register-processor.js";

/**
 * notify jobs: send one delivery of the log. Retryable failures throw (the catalog's exponential
 * backoff applies); final ones are recorded and the job completes.
 */
export function createNotifyProcessor(deps: DeliverDeps, maxAttempts: number): Processor<"notify"> {
  return async (payload, { log, attempt }) => {
    const report = await deliverNotification(deps, { deliveryId: payload.deliveryId, attempt, maxAttempts });
    if (report.status === "failed") log.warn(report, "delivery failed");
    return report;
  };
}
