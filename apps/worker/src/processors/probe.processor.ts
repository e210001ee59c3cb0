import type { SqlPool } from "@rpcpulse/db";
import { createSafeHttpClient } from "@rpcpulse/prober";
import {
  checkDirectoryCapabilities,
  decideNetworkHeads,
  probeDirectoryRound,
  pollWitnesses,
  probeNodePublicHeads,
  rankDirectory,
} from "@rpcpulse/services";
import type { Processor } from "../shell/register-processor.js";

export interface ProbeProcessorSettings {
  allowPrivate: boolean;
  onlyPrivate: boolean;
  concurrency: number;
  timeoutMs: number;
  intervalMs: number;
  jitter: number;
  capabilityIntervalMs: number;
  region: string;
}

/**
 * probe jobs: one round of head probes (bounded concurrency, starts jittered within the round),
 * capability checks of endpoints due, the ranking job, network heads or nodes' public URLs; each is
 * one service call.
 */
export function createProbeProcessor(deps: { pool: SqlPool }, settings: ProbeProcessorSettings): Processor<"probe"> {
  const client = createSafeHttpClient({ allowPrivate: settings.allowPrivate, timeoutMs: settings.timeoutMs });
  const vantage = { name: `server:${settings.region}`, region: settings.region };
  return async (payload, { log }) => {
    const task = payload.task ?? "round";
    if (task === "heads") {
      const report = await decideNetworkHeads({ sql: deps.pool });
      log.debug(report, "network heads decided");
      return report;
    }
    if (task === "public-heads") {
      const report = await probeNodePublicHeads(
        { sql: deps.pool },
        { client, concurrency: Math.min(16, settings.concurrency), onlyPrivate: settings.onlyPrivate },
      );
      log.info(report, "node public heads checked");
      return report;
    }
    if (task === "producers") {
      const report = await pollWitnesses({ sql: deps.pool }, { client, onlyPrivate: settings.onlyPrivate });
      log.info(report, "producers read");
      return report;
    }
    if (task === "rank") {
      const report = await rankDirectory({ pool: deps.pool }, { roundMs: settings.intervalMs });
      log.info(report, "directory ranked");
      return report;
    }
    if (task === "capabilities") {
      const report = await checkDirectoryCapabilities(
        { sql: deps.pool },
        {
          client,
          maxAgeMs: settings.capabilityIntervalMs,
          concurrency: Math.min(8, settings.concurrency),
          onlyPrivate: settings.onlyPrivate,
        },
      );
      log.info(report, "capability checks done");
      return report;
    }
    const ids = payload.endpointIds ?? (payload.endpointId ? [payload.endpointId] : undefined);
    const report = await probeDirectoryRound(
      { sql: deps.pool },
      {
        client,
        vantage,
        concurrency: settings.concurrency,
        spreadMs: Math.round(settings.intervalMs * settings.jitter),
        onlyPrivate: settings.onlyPrivate,
        ...(ids ? { endpointIds: ids } : {}),
      },
    );
    log.info(report, "probe round done");
    return report;
  };
}
