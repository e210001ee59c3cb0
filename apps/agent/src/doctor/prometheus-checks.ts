import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentConfig } from "../config/load.js";
import { fetchNodeMetrics } from "../prometheus/node-metrics.js";
import type { Check } from "./host-checks.js";
import type { ServiceIdentity } from "./unit-settings.js";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/** The Prometheus outputs as configured: none of these checks appear when all three are off. */
export async function checkPrometheus(
  config: AgentConfig,
  service: ServiceIdentity,
  options: { offline: boolean },
): Promise<Check[]> {
  const checks: Check[] = [];
  const { listen, textfile, nodeMetricsUrl } = config.prometheus;
  if (listen) {
    const where = `${listen.host.includes(":") ? `[${listen.host}]` : listen.host}:${listen.port}`;
    checks.push(
      LOOPBACK.test(listen.host)
        ? { id: "metrics-listen", status: "ok", detail: `/metrics served on ${where} (this host only)` }
        : {
            id: "metrics-listen",
            status: "warn",
            detail: `/metrics served on ${where}: reachable from the network (no authentication)`,
            fix: "firewall the port to your Prometheus, or give only a port to bind 127.0.0.1",
          },
    );
  }
  if (textfile) {
    const dir = dirname(textfile);
    let writable: string | null = null;
    try {
      accessSync(dir, constants.W_OK);
    } catch (error) {
      writable = existsSync(dir) ? ((error as NodeJS.ErrnoException).code ?? String(error)) : "does not exist";
    }
    const dropIn = `systemctl edit ${service.unitPath?.split("/").pop() ?? "rpcpulse-agent"}: [Service] ReadWritePaths=${dir}`;
    checks.push(
      writable
        ? {
            id: "textfile",
            status: "warn",
            detail: `${dir} is not writable here (${writable}); ${textfile} will not be written`,
            fix: `create the node_exporter textfile directory (node_exporter --collector.textfile.directory=${dir})`,
          }
        : {
            id: "textfile",
            status: service.unitPath ? "info" : "ok",
            detail: `${textfile} is written after each sample${service.unitPath ? "; the hardened unit (ProtectSystem=strict) needs the directory allowed" : ""}`,
            ...(service.unitPath ? { fix: dropIn } : {}),
          },
    );
  }
  if (nodeMetricsUrl && !options.offline) {
    const reading = await fetchNodeMetrics(nodeMetricsUrl, config.rpcTimeoutMs);
    const fills = [
      reading.peers !== null ? `peers ${reading.peers}` : null,
      reading.finalizedBlock !== null ? `finalized ${reading.finalizedBlock}` : null,
      reading.syncing !== null ? `syncing ${reading.syncing}` : null,
    ].filter((x): x is string => x !== null);
    checks.push(
      reading.client
        ? {
            id: "node-metrics",
            status: "ok",
            detail: `${nodeMetricsUrl.href}: ${reading.client} metrics (${fills.join(", ") || "nothing the RPC lacks"})`,
          }
        : {
            id: "node-metrics",
            status: "warn",
            detail: reading.error ?? `${nodeMetricsUrl.href}: no known metric`,
            fix: "enable the node's metrics (Geth --metrics, Substrate --prometheus-port, Nethermind --Metrics.Enabled) and point --node-metrics-url at them",
          },
    );
  }
  return checks;
}
