import { isIP } from "node:net";
import WebSocket from "ws";
import { ProbeError, toProbeError } from "./errors.js";
import type { SafeHttpClient } from "./http-client.js";
import type { LookupFunction } from "./safe-lookup.js";
import { WS_SCHEMES } from "./url-policy.js";

export interface SafeWebSocketOptions {
  /** Deadline for DNS + TCP + TLS + upgrade. Default: the client's connectTimeoutMs. */
  handshakeTimeoutMs?: number;
  /** Largest message accepted. Default: the client's maxResponseBytes. */
  maxPayloadBytes?: number;
  headers?: Record<string, string>;
}

export interface OpenedWebSocket {
  socket: WebSocket;
  /** From the start until the upgrade completed, sub-millisecond. */
  openMs: number;
  remoteAddress: string | null;
}

/**
 * Opens ws/wss through the same policy as HTTP: static URL checks, then the checking `lookup` at
 * connect time. Redirects are not followed on upgrades.
 */
export async function openSafeWebSocket(
  client: SafeHttpClient,
  url: string,
  options: SafeWebSocketOptions = {},
): Promise<OpenedWebSocket> {
  const target = client.checkUrl(url, WS_SCHEMES);
  const started = process.hrtime.bigint();
  return new Promise<OpenedWebSocket>((resolve, reject) => {
    let settled = false;
    // ws hands every option to net.connect/tls.connect, `lookup` included (its typings omit it).
    const wsOptions: WebSocket.ClientOptions & { lookup: LookupFunction } = {
      handshakeTimeout: options.handshakeTimeoutMs ?? client.options.connectTimeoutMs,
      maxPayload: options.maxPayloadBytes ?? client.options.maxResponseBytes,
      followRedirects: false,
      perMessageDeflate: false,
      headers: { "user-agent": client.options.userAgent, ...options.headers },
      lookup: client.createLookup(),
    };
    if (target.ipLiteral) wsOptions.family = isIP(target.host);
    if (client.ca) wsOptions.ca = client.ca;
    const socket = new WebSocket(target.url.href, wsOptions);
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      socket.terminate();
      const message = err instanceof Error ? err.message : String(err);
      reject(
        /timeout/i.test(message) && !(err instanceof ProbeError)
          ? new ProbeError("timeout", message)
          : toProbeError(err),
      );
    };
    socket.once("error", fail);
    socket.once("unexpected-response", (_req, res) => {
      fail(new ProbeError("http", `upgrade refused with HTTP ${res.statusCode ?? 0}`));
    });
    socket.once("upgrade", (res) => {
      const remote = res.socket.remoteAddress ?? null;
      if (!remote || !client.isAddressAllowed(remote))
        fail(new ProbeError("ssrf_blocked", `connected address ${remote ?? "?"} is not allowed`));
    });
    socket.once("open", () => {
      if (settled) return;
      settled = true;
      const raw = (socket as unknown as { _socket?: { remoteAddress?: string } })._socket;
      resolve({
        socket,
        openMs: Number(process.hrtime.bigint() - started) / 1e6,
        remoteAddress: raw?.remoteAddress ?? null,
      });
    });
  });
}
