import type { Logger } from "@rpcpulse/config";
import type { AgentSample } from "@rpcpulse/domain";
import { UsageError, type PrometheusConfig } from "../config/load.js";
import { buildMetricFamilies, type MetricContext, type MetricFamily } from "./metric-families.js";
import { startMetricsServer, type MetricsServer } from "./metrics-server.js";
import { enrichSampleFromNodeMetrics, type NodeMetricsReading } from "./node-metrics.js";
import { renderPrometheusText } from "./render-exposition.js";
import { writeTextfileAtomically } from "./write-textfile.js";

/** What `run` does with Prometheus: read the node's endpoint, serve /metrics, write the textfile. */
export interface PrometheusOutputs {
  /** Fill peers/finality/syncing from the node's own metrics (when configured); never throws. */
  enrichSample(sample: AgentSample): Promise<void>;
  /** Make this sample the one /metrics and the textfile show. */
  publishSample(sample: AgentSample, spool: MetricContext["spool"]): void;
  close(): Promise<void>;
}

export async function createPrometheusOutputs(
  config: PrometheusConfig,
  options: { nodeId?: string | undefined; timeoutMs: number; log: Logger },
): Promise<PrometheusOutputs> {
  let families: MetricFamily[] = [];
  let nodeReading: NodeMetricsReading | null = null;
  let server: MetricsServer | null = null;
  if (config.listen) {
    try {
      server = await startMetricsServer(config.listen, () => families);
    } catch (error) {
      throw new UsageError(
        `--metrics-listen ${config.listen.host}:${config.listen.port}: cannot listen (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
    options.log.info({ host: server.address.host, port: server.address.port }, "serving Prometheus /metrics");
  }
  return {
    async enrichSample(sample) {
      if (!config.nodeMetricsUrl) return;
      nodeReading = await enrichSampleFromNodeMetrics(sample, config.nodeMetricsUrl, options.timeoutMs);
    },
    publishSample(sample, spool) {
      if (!server && !config.textfile) return;
      families = buildMetricFamilies(sample, { nodeId: options.nodeId, spool, nodeMetrics: nodeReading });
      if (config.textfile) {
        try {
          writeTextfileAtomically(config.textfile, renderPrometheusText(families));
        } catch (error) {
          options.log.warn(
            { textfile: config.textfile, err: (error as NodeJS.ErrnoException).code ?? String(error) },
            "cannot write the textfile",
          );
        }
      }
    },
    async close() {
      await server?.close();
    },
  };
}
