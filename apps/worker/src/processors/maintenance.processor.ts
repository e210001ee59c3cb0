import type { SqlClient } from "@rpcpulse/db";
import { performStorageMaintenance } from "@rpcpulse/services";
import type { Processor } from "../shell/register-processor.js";

/** maintenance jobs: the payload is parsed by the shell; one service call does the work. */
export function createMaintenanceProcessor(deps: { sql: SqlClient }): Processor<"maintenance"> {
  return async (payload, { log }) => {
    const result = await performStorageMaintenance(
      { sql: deps.sql },
      { task: payload.task, now: new Date(), rollupLookbackMinutes: payload.rollupLookbackMinutes },
    );
    if (result.mode === "timescale") log.info({ storageMode: result.mode }, result.note);
    else log.info({ storageMode: result.mode, ...result.summary }, "storage maintenance done");
    return result;
  };
}
