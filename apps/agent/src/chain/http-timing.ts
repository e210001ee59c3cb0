import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import type { ChainLatency } from "@rpcpulse/domain";
import { RPCPULSE_VERSION } from "@rpcpulse/config";

export interface TimedRequest {
  url: URL;
  method: "GET" | "POST";
  body?: string;
  timeoutMs: number;
  /** Response bodies above this are aborted (default 4 MiB). */
  maxBytes?: number;
}

export interface TimedResponse {
  status: number;
  body: Buffer;
  timing: ChainLatency;
}

const ms = (from: bigint, to: bigint): number => Math.round(Number(to - from) / 1000) / 1000;

/**
 * One HTTP request on a fresh connection (agent: false, Connection: close), timed with
 * process.hrtime.bigint(): connect = TCP connect (TLS handshake done, for https), firstByte =
 * first response bytes on the socket, total = body fully read. A fresh connection per
 * measurement keeps the number comparable between samples (no dependence on the node's
 * keep-alive timeout) and includes the connect cost a new client pays; the price is one
 * short-lived connection per call, whose TIME_WAIT usually lands on the server side.
 */
export function timedRequest(req: TimedRequest): Promise<TimedResponse> {
  const isHttps = req.url.protocol === "https:";
  const lib = isHttps ? https : http;
  const maxBytes = req.maxBytes ?? 4 * 1024 * 1024;
  return new Promise<TimedResponse>((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    let tConnect: bigint | null = null;
    let tFirstByte: bigint | null = null;
    let settled = false;
    const headers: Record<string, string> = {
      "user-agent": `rpcpulse-agent/${RPCPULSE_VERSION}`,
      accept: "application/json",
      connection: "close",
    };
    if (req.body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(req.body));
    }
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    };
    const request = lib.request(req.url, { method: req.method, agent: false, headers });
    const timer = setTimeout(() => {
      request.destroy(new Error(`timeout after ${req.timeoutMs} ms`));
    }, req.timeoutMs);
    request.on("socket", (socket: Socket) => {
      socket.once(isHttps ? "secureConnect" : "connect", () => {
        tConnect = process.hrtime.bigint();
      });
      socket.once("data", () => {
        tFirstByte ??= process.hrtime.bigint();
      });
    });
    request.on("error", fail);
    request.on("response", (res) => {
      tFirstByte ??= process.hrtime.bigint();
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          request.destroy(new Error(`response larger than ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on("error", fail);
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const tEnd = process.hrtime.bigint();
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          timing: {
            connectMs: tConnect === null ? null : ms(t0, tConnect),
            firstByteMs: ms(t0, tFirstByte ?? tEnd),
            totalMs: ms(t0, tEnd),
          },
        });
      });
    });
    request.end(req.body);
  });
}
