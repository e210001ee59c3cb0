import type WebSocket from "ws";
import { toProbeError } from "../ssrf/errors.js";
import type { SafeHttpClient } from "../ssrf/http-client.js";
import { openSafeWebSocket } from "../ssrf/safe-websocket.js";
import type { WebSocketSpec } from "./families/types.js";
import { isMethodMissing } from "./rpc.js";
import type { WebSocketCapability } from "./types.js";

export interface WebSocketCheckOptions {
  /** How long to wait for a new head after subscribing. */
  headWaitMs: number;
  /** Deadline for the call and for the subscription ack. */
  replyTimeoutMs: number;
  /** Head known before subscribing: notifications at or below it are not "new". */
  knownHead: number | null;
  now: () => number;
}

type Message = Record<string, unknown>;

/** Buffers every JSON message so a reply that arrives before anyone waits for it is not lost. */
function createInbox(socket: WebSocket) {
  const buffer: Message[] = [];
  const waiters = new Set<{ match: (m: Message) => boolean; done: (m: Message | null) => void }>();
  socket.on("message", (data) => {
    let msg: unknown;
    try {
      msg = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (typeof msg !== "object" || msg === null || Array.isArray(msg)) return;
    for (const w of waiters) {
      if (w.match(msg as Message)) {
        w.done(msg as Message);
        return;
      }
    }
    if (buffer.length < 256) buffer.push(msg as Message);
  });
  socket.on("close", () => {
    for (const w of [...waiters]) w.done(null);
  });
  return {
    next(match: (m: Message) => boolean, timeoutMs: number): Promise<Message | null> {
      const i = buffer.findIndex(match);
      if (i >= 0) return Promise.resolve(buffer.splice(i, 1)[0] ?? null);
      return new Promise((resolve) => {
        const w = {
          match,
          done: (m: Message | null) => {
            clearTimeout(timer);
            waiters.delete(w);
            resolve(m);
          },
        };
        const timer = setTimeout(() => w.done(null), Math.max(1, timeoutMs));
        waiters.add(w);
      });
    },
  };
}

const since = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e6;

/** Opens the socket through the SSRF policy, times one call, then waits for a new head on a subscription. */
export async function checkWebSocket(
  client: SafeHttpClient,
  url: string,
  spec: WebSocketSpec,
  options: WebSocketCheckOptions,
): Promise<WebSocketCapability> {
  const out: WebSocketCapability = {
    supported: false,
    url,
    openMs: null,
    callMs: null,
    subscription: null,
    firstHeadMs: null,
    headDelayMs: null,
    error: null,
  };
  let socket: WebSocket | null = null;
  try {
    const opened = await openSafeWebSocket(client, url);
    socket = opened.socket;
    out.openMs = opened.openMs;
    const inbox = createInbox(socket);
    const tCall = process.hrtime.bigint();
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: spec.call.method, params: spec.call.params }));
    const reply = await inbox.next((m) => m.id === 1, options.replyTimeoutMs);
    if (!reply || !("result" in reply)) {
      out.error = reply ? "the call over WebSocket returned an error" : "no answer over WebSocket";
      return out;
    }
    out.callMs = since(tCall);
    out.supported = true;
    const sub = spec.subscribe;
    if (!sub) return out;

    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: sub.method, params: sub.params }));
    const ack = await inbox.next((m) => m.id === 2, options.replyTimeoutMs);
    if (!ack) {
      out.error = "no answer to the subscription";
      return out;
    }
    const subId = ack.result;
    if (typeof subId !== "string" && typeof subId !== "number") {
      const err = ack.error as { code?: number; message?: string } | undefined;
      out.subscription = err && isMethodMissing({ code: err.code ?? null, message: err.message ?? "" }) ? false : null;
      out.error = `subscription refused: ${err?.message ?? "no id"}`;
      return out;
    }
    out.subscription = true;
    const tAck = process.hrtime.bigint();
    const isNote = (m: Message): boolean =>
      (m.params as { subscription?: unknown } | undefined)?.subscription === subId;
    for (;;) {
      const remaining = options.headWaitMs - since(tAck);
      if (remaining <= 0) break;
      const note = await inbox.next(isNote, remaining);
      if (!note) break;
      const head = sub.parse((note.params as { result?: unknown }).result);
      if (!head || (options.knownHead !== null && head.number <= options.knownHead)) continue;
      out.firstHeadMs = since(tAck);
      out.headDelayMs = head.timestampMs === null ? null : options.now() - head.timestampMs;
      break;
    }
    if (out.firstHeadMs === null) out.error = `no new head within ${options.headWaitMs} ms`;
    return out;
  } catch (err) {
    out.error = toProbeError(err).message.slice(0, 300);
    return out;
  } finally {
    socket?.terminate();
  }
}
