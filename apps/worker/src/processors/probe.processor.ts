import type { SqlPool } from "@rpcpulse/db/sql";
import { createSafeHttpClient } from "@rpcpulse/prober";
import type { QueueTarget } from "@rpcpulse/queue";
import {
  checkDirectoryCapabilities,
  fanOutProbeRound,
  probeDirectoryRound,
  rankDirectory,
} from "@rpcpulse/services/directory";
import { decideNetworkHeads } from "@rpcpulse/services/ingest";
import { pollValidators, pollWitnesses } from "@rpcpulse/services/producers";
import { probeNodePublicHeads } from "@rpcpulse/services/fleet";
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
  /** A region gets rounds while one of its workers' heartbeats is this recent. */
  regionTtlMs: number;
  /** Overall status, listing status and head votes need more than this share of reporting regions. */
  regionQuorumShare: number;
}

/**
 * Shared `probe` queue jobs: a round is fanned out to every active region's queue (the region
 * processor below probes it); capability checks of endpoints due, the ranking job, network heads,
 * nodes' public URLs and producers run here. Each is one service call.
 */
export function createProbeProcessor(
  deps: { pool: SqlPool; target: QueueTarget },
  settings: ProbeProcessorSettings,
): Processor<"probe"> {
  const client = createSafeHttpClient({ allowPrivate: settings.allowPrivate, timeoutMs: settings.timeoutMs });
  const quorum = { regionQuorumShare: settings.regionQuorumShare, roundMs: settings.intervalMs };
  return async (payload, { log, jobId }) => {
    const task = payload.task ?? "round";
    if (task === "heads") {
      const report = await decideNetworkHeads({ sql: deps.pool }, quorum);
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
      const witnesses = await pollWitnesses({ sql: deps.pool }, { client, onlyPrivate: settings.onlyPrivate });
      // Validators after witnesses: a failing sidecar never holds back the witness read.
      const validators = await pollValidators({ sql: deps.pool }, { client, onlyPrivate: settings.onlyPrivate });
      const report = { ...witnesses, validators };
      log.info(report, "producers read");
      return report;
    }
    if (task === "rank") {
      const report = await rankDirectory({ pool: deps.pool }, quorum);
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
    const report = await fanOutProbeRound(
      { sql: deps.pool, target: deps.target },
      { roundId: jobId, regionTtlMs: settings.regionTtlMs, payload, selfRegion: settings.region },
    );
    log.debug(report, "probe round fanned out to regions");
    return report;
  };
}

/**
 * A region's probe queue (`probe.<region>`): one round of head probes from this region's vantage point
 * (`server:<region>`), bounded concurrency, starts jittered within the round.
 */
export function createRegionProbeProcessor(
  deps: { pool: SqlPool },
  settings: Pick<
    ProbeProcessorSettings,
    "allowPrivate" | "onlyPrivate" | "concurrency" | "timeoutMs" | "intervalMs" | "jitter" | "region"
  > & { localAddress?: string | undefined },
): Processor<"probe"> {
  const client = createSafeHttpClient({
    allowPrivate: settings.allowPrivate,
    timeoutMs: settings.timeoutMs,
    ...(settings.localAddress ? { localAddress: settings.localAddress } : {}),
  });
  const vantage = { name: `server:${settings.region}`, region: settings.region };
  return async (payload, { log }) => {
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
    log.info({ ...report, region: settings.region }, "probe round done");
    return report;
  };
}
