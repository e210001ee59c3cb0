import type { SqlClient } from "@rpcpulse/db/sql";
import { performStorageMaintenance } from "@rpcpulse/services/platform";
import { refreshStatusUptimeDays } from "@rpcpulse/services/status";
import type { Processor } from "../shell/register-processor.js";

export interface MaintenanceProcessorSettings {
  /** status-uptime runs: refs filled per run at most, and per step. */
  statusUptime: { maxRefs: number; batchSize: number };
}

/** maintenance jobs: the payload is parsed by the shell; each task is one service call. */
export function createMaintenanceProcessor(
  deps: { sql: SqlClient },
  settings: MaintenanceProcessorSettings,
): Processor<"maintenance"> {
  return async (payload, { log }) => {
    if (payload.task === "status-uptime") {
      const report = await refreshStatusUptimeDays(
        { sql: deps.sql },
        { now: new Date(), ...settings.statusUptime, shard: payload.shard },
      );
      log.info(report, "status uptime days refreshed");
      return report;
    }
    const result = await performStorageMaintenance(
      { sql: deps.sql },
      { task: payload.task, now: new Date(), rollupLookbackMinutes: payload.rollupLookbackMinutes },
    );
    if (result.mode === "timescale") log.info({ storageMode: result.mode }, result.note);
    else log.info({ storageMode: result.mode, ...result.summary }, "storage maintenance done");
    return result;
  };
}
