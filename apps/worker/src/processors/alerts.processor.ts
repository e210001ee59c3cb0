import { evaluateAlerts, sweepUnqueuedDeliveries, type EvaluateAlertsDeps } from "@rpcpulse/services/alerting";
import type { Processor } from "../shell/register-processor.js";

export interface DeliverySweepSettings {
  graceMs: number;
  limit: number;
}

/**
 * alerts jobs: one evaluation round of every enabled rule, or one sweep of the delivery outbox
 * (rows committed but never queued); each is one service call.
 */
export function createAlertsProcessor(deps: EvaluateAlertsDeps, sweep: DeliverySweepSettings): Processor<"alerts"> {
  return async (payload, { log }) => {
    if (payload.task === "sweep-deliveries") {
      const report = await sweepUnqueuedDeliveries(deps, sweep);
      if (report.found > 0) log.warn(report, "unqueued deliveries found and queued");
      else log.debug(report, "delivery outbox swept");
      return report;
    }
    const report = await evaluateAlerts(deps, { shard: payload.shard });
    if (report.events > 0 || report.errors > 0) log.info(report, "alerts evaluated");
    else log.debug(report, "alerts evaluated");
    return report;
  };
}
