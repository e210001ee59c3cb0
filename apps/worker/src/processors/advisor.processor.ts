import { runAdvisorSweep, type AdvisorDeps, type AdvisorSweepSettings } from "@rpcpulse/services/advisor";
import type { Processor } from "../shell/register-processor.js";

/**
 * advisor jobs: the payload is parsed by the shell; one service call evaluates the nodes with new
 * samples (bounded batch) and verifies applied suggestions whose window has passed.
 */
export function createAdvisorProcessor(deps: AdvisorDeps, settings: AdvisorSweepSettings): Processor<"advisor"> {
  return async (payload, { log }) => {
    const report = await runAdvisorSweep(deps, { now: new Date(), shard: payload.shard }, settings);
    for (const failure of report.failed) log.warn(failure, "advisor: node evaluation failed");
    log.info(
      {
        evaluated: report.evaluated,
        failed: report.failed.length,
        opened: report.opened,
        updated: report.updated,
        verification: report.verification,
        durationMs: report.durationMs,
      },
      "advisor sweep done",
    );
    return { ...report, failed: report.failed.length };
  };
}
