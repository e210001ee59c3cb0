import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the RPC Pulse directory API (`GET /api/v1/chains/{network}/endpoints`). The API is a
 * third-party boundary for this library (it ships separately, in apps/web), so the tests serve a fixture
 * of its documented response shape, with the URLs of real simnet nodes, instead of starting the web app.
 */

export interface FixtureEndpoint {
  name: string;
  url: string;
  wsUrl?: string | null;
  score?: number;
  status?: "active" | "probation" | "dead";
  health?: "healthy" | "degraded" | "probation" | "dead";
  capabilities?: Record<string, boolean>;
}

/**
 * A body shaped like `RankedListResponse` in packages/services/src/directory/schemas.ts (checked by hand on
 * 2026-11-22), including the fields the client ignores (components, Beacon-compatible fields, ...).
 */
export function rankedBody(network: string, endpoints: readonly FixtureEndpoint[]): unknown {
  const updatedAt = new Date().toISOString();
  return {
    network,
    window: "24h",
    region: "all",
    scoringVersion: "1",
    updatedAt,
    endpoints: endpoints.map((e, i) => {
      const capabilities = {
        archive: false,
        websocket: e.wsUrl != null,
        trace: false,
        debug: false,
        batch: true,
        cors: true,
        logs: false,
        ...e.capabilities,
      };
      return {
        id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`,
        url: e.url,
        wsUrl: e.wsUrl ?? null,
        name: e.name,
        provider: null,
        family: "jsonrpc",
        status: e.status ?? "active",
        health: e.health ?? (e.status === "dead" ? "dead" : "healthy"),
        rank: i + 1,
        score: e.score ?? 99 - i * 5,
        components: { availability: 1, lag: 1, latency: 0.9, errors: 1, capabilities: 0.5 },
        latency: { p50Ms: 20 + i * 10, p95Ms: 60 + i * 20 },
        lagBlocks: 0,
        headRegressions: 0,
        uptime: { h24: 0.999, d7: 0.998, d30: null },
        samples: 2880,
        capabilities,
        capabilitiesCheckedAt: updatedAt,
        clientVersion: null,
        operatorVerified: false,
        updatedAt,
        endpoint: e.url,
        version: null,
        success: 2880,
        fail: 0,
        features: Object.keys(capabilities).filter((k) => capabilities[k as keyof typeof capabilities]),
        updated_at: updatedAt,
      };
    }),
  };
}

export interface DirectoryFixture {
  url: string;
  /** Request paths with query strings, in order. */
  requests: string[];
  /** Replace the served body (e.g. a new order); `null` answers 503, a string is sent as is. */
  setBody(network: string, body: unknown): void;
  close(): Promise<void>;
}

export async function startDirectoryFixture(
  bodies: Record<string, unknown> = {},
  options: { cacheControl?: string } = {},
): Promise<DirectoryFixture> {
  const current = new Map<string, unknown>(Object.entries(bodies));
  const requests: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    requests.push(req.url ?? "");
    const cors = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, OPTIONS" };
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...cors, "access-control-allow-headers": "accept, content-type" });
      res.end();
      return;
    }
    const match = /^\/api\/v1\/chains\/([^/?]+)\/endpoints(\?|$)/.exec(req.url ?? "");
    const body = match ? current.get(decodeURIComponent(match[1] as string)) : undefined;
    if (body === undefined) {
      res.writeHead(404, { ...cors, "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "NOT_FOUND" } }));
    } else if (body === null) {
      res.writeHead(503, { ...cors, "content-type": "text/plain" });
      res.end("unavailable");
    } else {
      res.writeHead(200, {
        ...cors,
        "content-type": "application/json",
        "cache-control": options.cacheControl ?? "public, max-age=15",
      });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setBody: (network, body) => current.set(network, body),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
