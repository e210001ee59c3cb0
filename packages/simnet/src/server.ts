import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { WebSocketServer, type WebSocket } from "ws";
import type { Family, JsonRpcFamily, SubscriptionRequest } from "./families/types.js";
import { errorResponse } from "./jsonrpc.js";
import { sampleLatencyMs } from "./latency.js";
import { countCalls, dispatchJsonRpc, firstId, parseJsonRpcBody } from "./rpc-dispatch.js";
import type { SimNode } from "./sim-node.js";

/** HTTP (and optional WebSocket) server of one simulated node on 127.0.0.1. */

const HOST = "127.0.0.1";
const STATUS_TEXT: Record<number, string> = {
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Time-out",
};

interface Subscription extends SubscriptionRequest {
  id: string;
  lastHeight: number;
  /** Height of the last notification sent, for topics that only send changes. */
  lastSent?: number;
}

export interface NodeServer {
  url: string;
  wsUrl: string | null;
  port: number;
  close(): Promise<void>;
}

export interface StartNodeServerOptions {
  node: SimNode;
  family: Family;
  websocket: boolean;
  headPollMs: number;
}

/** nginx-style HTML error page, what a load balancer in front of a node answers. */
function htmlError(status: number): string {
  const text = `${status} ${STATUS_TEXT[status] ?? "Error"}`;
  return `<html>\r\n<head><title>${text}</title></head>\r\n<body>\r\n<center><h1>${text}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<{ text: string } | { tooLarge: number }> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) {
      req.resume();
      resolve({ tooLarge: declared });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > limit ? { tooLarge: size } : { text: Buffer.concat(chunks).toString("utf8") }));
    req.on("error", reject);
  });
}

export async function startNodeServer(options: StartNodeServerOptions): Promise<NodeServer> {
  const { node, family } = options;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    handleHttp(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  /** Latency, then maybe an injected failure. true = the caller still has to answer. */
  async function delayAndMaybeFail(
    res: ServerResponse | null,
    socket: Socket | null,
  ): Promise<"ok" | "done" | "internal"> {
    const ms = sampleLatencyMs(node.latency, node.random);
    if (ms > 0) await sleep(ms);
    const forced = node.takeForcedFailure();
    if (forced !== null || (node.errorRate > 0 && node.random.next() < node.errorRate)) {
      const kind = forced ?? node.errorKind;
      if (kind === "jsonrpc-internal") return "internal";
      if (kind === "connection-reset") {
        socket?.destroy();
        return "done";
      }
      if (res) {
        const status = Number(kind.slice(5));
        const body = htmlError(status);
        res.writeHead(status, { "content-type": "text/html", "content-length": Buffer.byteLength(body) });
        res.end(body);
        return "done";
      }
      return "internal";
    }
    return "ok";
  }

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", `http://${HOST}`);
    const body = await readBody(req, node.config.maxBodyBytes);
    if ("tooLarge" in body) {
      res.writeHead(413, { "content-type": "text/plain" });
      res.end(`content length too large (${body.tooLarge}>${node.config.maxBodyBytes})`);
      return;
    }
    const outcome = await delayAndMaybeFail(res, req.socket);
    if (outcome === "done") return;
    const ctx = { node, view: node.view(), transport: "http" as const };
    if (family.kind === "rest") {
      const wait = node.rateLimiter?.take(1) ?? 0;
      if (wait > 0) {
        const r = family.rateLimited();
        sendJson(res, r.status, r.body, { "retry-after": String(wait) });
        return;
      }
      const r = outcome === "internal" ? family.internalError() : family.handle(req.method ?? "GET", url, ctx);
      sendJson(res, r.status, r.body);
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { "content-type": "text/plain", allow: "POST" });
      res.end("method not allowed");
      return;
    }
    const contentType = String(req.headers["content-type"] ?? "");
    if (!contentType.toLowerCase().startsWith("application/json")) {
      res.writeHead(415, { "content-type": "text/plain" });
      res.end("invalid content type, only application/json is supported");
      return;
    }
    const parsed = parseJsonRpcBody(body.text, family);
    if (!parsed.ok) {
      sendJson(res, 200, parsed.response);
      return;
    }
    const wait = node.rateLimiter?.take(countCalls(parsed.payload)) ?? 0;
    if (wait > 0) {
      sendJson(res, 429, errorResponse(firstId(parsed.payload), family.dialect.rateLimited()), {
        "retry-after": String(wait),
      });
      return;
    }
    const answer = dispatchJsonRpc(parsed.payload, {
      family,
      ctx,
      batchLimit: node.config.batchLimit,
      failAll: outcome === "internal",
    });
    sendJson(res, 200, answer);
  }

  const wss = options.websocket && family.kind === "jsonrpc" ? new WebSocketServer({ noServer: true }) : null;
  server.on("upgrade", (req, socket, head) => {
    if (!wss) {
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveWebSocket(ws, family as JsonRpcFamily, req.socket));
  });

  const pollers = new Set<() => void>();
  const poll = setInterval(() => pollers.forEach((fn) => fn()), options.headPollMs);
  poll.unref();

  function serveWebSocket(ws: WebSocket, rpc: JsonRpcFamily, socket: Socket): void {
    const subs = new Map<string, Subscription>();
    const send = (value: unknown): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(value));
    };
    const notify = (sub: Subscription, height: number): void => {
      const ctx = { node, view: node.view(), transport: "ws" as const };
      const result = rpc.renderNotification(sub, height, ctx, sub.lastSent);
      if (result === undefined) return;
      sub.lastSent = height;
      send({ jsonrpc: "2.0", method: sub.notifyMethod, params: { subscription: sub.id, result } });
    };
    const tick = (): void => {
      if (subs.size === 0) return;
      const head = node.currentHead();
      const view = { head, networkHead: node.network.head(), nowMs: node.network.clock.now() };
      for (const sub of subs.values()) {
        if (sub.topic === "runtimeVersion") continue;
        const height = rpc.topicHeight(sub.topic, view);
        if (height <= sub.lastHeight) continue;
        const from =
          sub.topic === "finalizedHeads" || sub.topic === "storage"
            ? height
            : Math.max(sub.lastHeight + 1, height - 15);
        for (let h = from; h <= height; h += 1) notify(sub, h);
        sub.lastHeight = height;
      }
    };
    pollers.add(tick);
    const hooks = {
      open(request: SubscriptionRequest): string {
        const id =
          rpc.subscriptionIdStyle === "hex"
            ? `0x${Buffer.from(Array.from({ length: 16 }, () => node.random.int(256))).toString("hex")}`
            : randomAlnum(node, 16);
        const view = { head: node.currentHead(), networkHead: node.network.head(), nowMs: node.network.clock.now() };
        const sub: Subscription = { ...request, id, lastHeight: rpc.topicHeight(request.topic, view) };
        subs.set(id, sub);
        if (request.sendInitial) setImmediate(() => subs.has(id) && notify(sub, sub.lastHeight));
        return id;
      },
      close: (id: string): boolean => subs.delete(id),
    };
    ws.on("message", (data) => {
      void (async () => {
        const outcome = await delayAndMaybeFail(null, socket);
        if (outcome === "done") return;
        const parsed = parseJsonRpcBody(String(data), rpc);
        if (!parsed.ok) return send(parsed.response);
        const wait = node.rateLimiter?.take(countCalls(parsed.payload)) ?? 0;
        if (wait > 0) return send(errorResponse(firstId(parsed.payload), rpc.dialect.rateLimited()));
        const ctx = { node, view: node.view(), transport: "ws" as const };
        const answer = dispatchJsonRpc(parsed.payload, {
          family: rpc,
          ctx,
          batchLimit: node.config.batchLimit,
          failAll: outcome === "internal",
          subscriptions: hooks,
        });
        if (answer !== undefined) send(answer);
      })();
    });
    ws.on("close", () => {
      subs.clear();
      pollers.delete(tick);
    });
    ws.on("error", () => ws.terminate());
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(node.config.port, HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${HOST}:${port}`,
    wsUrl: wss ? `ws://${HOST}:${port}` : null,
    port,
    async close() {
      clearInterval(poll);
      if (wss) {
        for (const client of wss.clients) client.terminate();
        wss.close();
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

function randomAlnum(node: SimNode, length: number): string {
  let out = "";
  for (let i = 0; i < length; i += 1) out += ALNUM[node.random.int(ALNUM.length)];
  return out;
}
