import { createServer, type Server } from "node:http";
import {
  acceptsOpenMetrics,
  OPENMETRICS_CONTENT_TYPE,
  PROMETHEUS_CONTENT_TYPE,
  renderOpenMetricsText,
  renderPrometheusText,
} from "./render-exposition.js";
import type { MetricFamily } from "./metric-families.js";

/** Where --metrics-listen binds: host (IPv4, [IPv6] or a name) and port. */
export interface ListenAddress {
  host: string;
  port: number;
}

export interface MetricsServer {
  /** The bound address (port resolved when 0 was asked). */
  address: ListenAddress;
  close(): Promise<void>;
}

/**
 * Serve GET /metrics from the newest families (`current()`; empty before the first sample), in
 * OpenMetrics when the scraper's Accept asks for it, else the Prometheus text format.
 */
export async function startMetricsServer(listen: ListenAddress, current: () => MetricFamily[]): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    if (path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("see /metrics\n");
      return;
    }
    const open = acceptsOpenMetrics(req.headers.accept);
    const body = open ? renderOpenMetricsText(current()) : renderPrometheusText(current());
    res.writeHead(200, {
      "content-type": open ? OPENMETRICS_CONTENT_TYPE : PROMETHEUS_CONTENT_TYPE,
      "content-length": Buffer.byteLength(body),
    });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = server.address();
  const port = bound && typeof bound === "object" ? bound.port : listen.port;
  return {
    address: { host: listen.host, port },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
