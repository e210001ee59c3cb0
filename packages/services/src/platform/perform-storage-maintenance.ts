import { getStorageMode } from "@rpcpulse/db/migrate";
import { PRODUCER_SAMPLES_RETENTION_DAYS, pruneProducerSamples } from "@rpcpulse/db/producers";
import { refreshRollups, runStorageMaintenance } from "@rpcpulse/db/platform";
import { type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";

export const PerformStorageMaintenanceInput = z.object({
  task: z.literal("storage"),
  now: z.date(),
  /**
   * Closed rollup buckets inside [now - lookback, now) are (re)computed, so samples that arrived
   * late (agent buffer replay) still reach the rollups. Default 3 hours.
   */
  rollupLookbackMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(180),
});
export type PerformStorageMaintenanceInput = z.input<typeof PerformStorageMaintenanceInput>;

export type StorageMaintenanceResult =
  | { mode: "timescale"; note: string }
  | {
      mode: "plain";
      summary: {
        partitionsCreated: number;
        partitionsDropped: number;
        otherActions: number;
        rollupBuckets: number;
        /** producer_samples rows past PRODUCER_SAMPLES_RETENTION_DAYS deleted (Timescale: its 0024 policy). */
        producerSamplesPruned: number;
      };
      window: { from: string; to: string };
    };

/**
 * Storage upkeep for plain-PostgreSQL mode: create partitions ahead, drop expired ones, then
 * refresh closed rollup buckets of the lookback window and delete producer_samples rows older than
 * 400 days (the plain table has no partitions to drop). Idempotent, so a retried or overlapping
 * run changes nothing. Under TimescaleDB its own policies do all of this; the job only says so.
 */
export async function performStorageMaintenance(
  deps: { sql: SqlClient },
  rawInput: PerformStorageMaintenanceInput,
): Promise<StorageMaintenanceResult> {
  const input = PerformStorageMaintenanceInput.parse(rawInput);
  const mode = await getStorageMode(deps.sql);
  if (mode === "timescale") {
    return { mode, note: "timescale mode: TimescaleDB policies handle partitions, retention and rollups" };
  }
  const { actions } = await runStorageMaintenance(deps.sql, input.now);
  const from = new Date(input.now.getTime() - input.rollupLookbackMinutes * 60_000);
  const { rollups } = await refreshRollups(deps.sql, { from, to: input.now }, input.now);
  const producerSamplesPruned = await pruneProducerSamples(deps.sql, {
    before: new Date(input.now.getTime() - PRODUCER_SAMPLES_RETENTION_DAYS * 86_400_000),
  });
  const count = (action: string) => actions.filter((a) => a.action === action).length;
  const partitionsCreated = count("create_partition");
  const partitionsDropped = count("drop_partition");
  return {
    mode,
    summary: {
      partitionsCreated,
      partitionsDropped,
      otherActions: actions.length - partitionsCreated - partitionsDropped,
      rollupBuckets: rollups.reduce((sum, r) => sum + (r.buckets ?? 0), 0),
      producerSamplesPruned,
    },
    window: { from: from.toISOString(), to: input.now.toISOString() },
  };
}
