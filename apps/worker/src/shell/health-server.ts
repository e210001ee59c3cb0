import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A named dependency check; resolves true when the dependency answers. Must not throw. */
export type HealthCheck = () => Promise<boolean>;

export interface HealthServer {
  port: number;
  close: () => Promise<void>;
}

/** GET /metrics on the health port: `authorize` decides (bearer METRICS_TOKEN), `render` answers. */
export interface MetricsEndpoint {
  authorize: (authorization: string | undefined) => "ok" | "disabled" | "unauthorized";
  render: () => Promise<{ contentType: string; body: string }>;
}

/**
 * GET /healthz: 200 {"status":"ok","checks":{...}} when every check passes, else 503 with the
 * failing checks; `details` (the read replica's lag, say) is reported without deciding the status.
 * Used by the compose/Kubernetes healthcheck. GET /metrics when `metrics` is given.
 */
export async function startHealthServer(options: {
  host: string;
  port: number;
  checks: Record<string, HealthCheck>;
  info?: Record<string, unknown>;
  details?: () => Record<string, unknown>;
  metrics?: MetricsEndpoint;
}): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/metrics" && options.metrics) {
      const access = options.metrics.authorize(req.headers.authorization);
      if (access !== "ok") {
        const status = access === "disabled" ? 404 : 401;
        res
          .writeHead(status, { "content-type": "application/json" })
          .end(JSON.stringify({ error: access === "disabled" ? "not found" : "Bearer METRICS_TOKEN required" }));
        return;
      }
      void options.metrics.render().then(
        ({ contentType, body }) =>
          res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(body),
        () => res.writeHead(500).end(),
      );
      return;
    }
    if (req.method !== "GET" || path !== "/healthz") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    void runChecks(options.checks).then((checks) => {
      const ok = Object.values(checks).every((v) => v === "ok");
      res
        .writeHead(ok ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" })
        .end(JSON.stringify({ status: ok ? "ok" : "unavailable", checks, ...options.info, ...options.details?.() }));
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function runChecks(checks: Record<string, HealthCheck>): Promise<Record<string, "ok" | "down">> {
  const entries = await Promise.all(
    Object.entries(checks).map(
      async ([name, check]) => [name, (await check().catch(() => false)) ? "ok" : "down"] as const,
    ),
  );
  return Object.fromEntries(entries);
}
