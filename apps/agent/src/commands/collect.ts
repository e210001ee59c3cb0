import { setTimeout as sleep } from "node:timers/promises";
import { agentSampleSchema, type AgentSample } from "@rpcpulse/domain";
import { BeaconAdapter } from "../chain/beacon.js";
import { createChainAdapter } from "../chain/index.js";
import type { AgentConfig } from "../config/load.js";
import { Sampler } from "../collect/sampler.js";
import { enrichSampleFromNodeMetrics } from "../prometheus/node-metrics.js";
import { CONFIG_HELP, CONFIG_OPTIONS, configFromFlags, parseCommandArgs } from "./options.js";

export const COLLECT_HELP = `rpcpulse-agent collect [--once] [options]

Collect samples and print them to stdout as JSON in the wire format (one line per sample
without --once, every --interval). Nothing is sent. With --node-metrics-url, the node's own
metrics fill what the RPC left out, as in run.

${CONFIG_HELP}`;

export function createSampler(config: AgentConfig): Sampler {
  return new Sampler({
    publicPorts: config.ports,
    topN: config.topN,
    dataDirs: config.dataDirs,
    process: config.process,
    chain:
      config.family && config.rpcUrl
        ? createChainAdapter(config.family, { url: config.rpcUrl, timeoutMs: config.rpcTimeoutMs })
        : null,
    beacon: config.beaconUrl ? new BeaconAdapter({ url: config.beaconUrl, timeoutMs: config.rpcTimeoutMs }) : null,
  });
}

/** Fill peers/finality/syncing from the node's own metrics when configured (never throws). */
async function collectWithNodeMetrics(sampler: Sampler, config: AgentConfig): Promise<AgentSample> {
  const sample = await sampler.collect();
  const url = config.prometheus.nodeMetricsUrl;
  if (!url) return sample;
  await enrichSampleFromNodeMetrics(sample, url, config.rpcTimeoutMs);
  return sample;
}

export async function collectCommand(args: string[], out: NodeJS.WritableStream): Promise<number> {
  const { values } = parseCommandArgs(args, {
    ...CONFIG_OPTIONS,
    once: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    out.write(`${COLLECT_HELP}\n`);
    return 0;
  }
  const config = configFromFlags(values);
  const sampler = createSampler(config);
  if (values.once) {
    // Two readings a short moment apart would give CPU and counter deltas; one --once sample
    // reports them as null, exactly like the first sample of a running agent.
    const sample = agentSampleSchema.parse(await collectWithNodeMetrics(sampler, config));
    out.write(`${JSON.stringify(sample, null, 2)}\n`);
    return 0;
  }
  // The loop prints what it collects without re-validating each sample (the types guarantee the
  // shape; the schema is checked by --once and the tests): zod's compiled validator would add
  // CPU and several MB of RSS to a process that must stay under 1 % of a core and 64 MB.
  for (;;) {
    const started = Date.now();
    const sample = await collectWithNodeMetrics(sampler, config);
    out.write(`${JSON.stringify(sample)}\n`);
    await sleep(Math.max(0, config.intervalMs - (Date.now() - started)));
  }
}
