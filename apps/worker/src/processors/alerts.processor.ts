import { evaluateAlerts, type EvaluateAlertsDeps } from "@rpcpulse/services";
import type { Processor } from "../shell/register-processor.js";

/** alerts jobs: one evaluation round of every enabled rule (one service call). */
export function createAlertsProcessor(deps: EvaluateAlertsDeps): Processor<"alerts"> {
  return async (_payload, { log }) => {
    const report = await evaluateAlerts(deps);
    if (report.events > 0 || report.errors > 0) log.info(report, "alerts evaluated");
    else log.debug(report, "alerts evaluated");
    return report;
  };
}
