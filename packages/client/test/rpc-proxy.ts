import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small HTTP server in front of simnet nodes: POST /rpc/<name> is forwarded to the node called <name>
 * and recorded (how many JSON-RPC calls, batched or not), so a test can tell that viem batched its calls.
 * A node that is down answers 502, as behind a real load balancer. Browsers reach simnet (no CORS headers)
 * through it on the page's own origin; `extra` serves the page and its bundle on the same origin.
 */

export interface ForwardedPost {
  node: string;
  /** JSON-RPC calls in the body (the array length for a batch). */
  calls: number;
  batch: boolean;
  methods: string[];
}

export interface RpcProxy {
  origin: string;
  /** `${origin}/rpc/${node}` */
  urlOf(node: string): string;
  posts: ForwardedPost[];
  close(): Promise<void>;
}

type Extra = (req: IncomingMessage, res: ServerResponse) => boolean;

function methodsOf(body: unknown): string[] {
  const items = Array.isArray(body) ? body : [body];
  return items.map((i) => String((i as { method?: unknown } | null)?.method ?? "?"));
}

export async function startRpcProxy(targets: (node: string) => string | undefined, extra?: Extra): Promise<RpcProxy> {
  const posts: ForwardedPost[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (!(path.startsWith("/rpc/") && req.method === "POST")) {
      if (extra?.(req, res)) return;
      res.writeHead(404).end();
      return;
    }
    const node = decodeURIComponent(path.slice(5));
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      try {
        const body: unknown = JSON.parse(text);
        posts.push({
          node,
          calls: Array.isArray(body) ? body.length : 1,
          batch: Array.isArray(body),
          methods: methodsOf(body),
        });
      } catch {
        posts.push({ node, calls: 0, batch: false, methods: [] });
      }
      fetch(targets(node) ?? "http://127.0.0.1:9", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: text,
      })
        .then(async (r) => {
          res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
          res.end(await r.text());
        })
        .catch(() => {
          res.writeHead(502, { "content-type": "text/html" });
          res.end("<html><body>502 Bad Gateway</body></html>");
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urlOf: (node) => `${origin}/rpc/${encodeURIComponent(node)}`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
