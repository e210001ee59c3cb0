import { once } from "node:events";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/**
 * An HTTP proxy between the real agent and the real ingest API that records every attempt (the
 * batch as sent, the upstream status, what the agent got back) and can inject faults per request.
 * Its record is the test's independent view of what the agent sealed and pushed.
 */
export type Fault =
  /** Forward and relay the real answer. */
  | { kind: "pass" }
  /** Answer 503 without forwarding. */
  | { kind: "refuse" }
  /** Forward (ingest accepts), then answer 502: the agent must replay a batch that was in fact queued. */
  | { kind: "swallow" }
  /** Forward at once, relay the real answer only after delayMs (a slow network: a kill lands mid-request). */
  | { kind: "slow"; delayMs: number }
  /** Forward with extra/replaced request headers, relay the real answer. */
  | { kind: "rewrite"; headers: Record<string, string> };

export interface Attempt {
  seq: number | null;
  /** Parsed batch, or null when the body was not a gzip'd JSON batch. */
  batch: { batchSeq: number; sentAt: string; samples: { collectedAt: string }[] } | null;
  fault: Fault["kind"];
  /** Status from the ingest API (null: not forwarded or the ingest was unreachable). */
  upstreamStatus: number | null;
  upstreamBody: string;
  /** Status the agent got (null: connection destroyed). */
  answered: number | null;
}

export interface RecordingProxy {
  port: number;
  url: string;
  attempts: Attempt[];
  setFault(decide: (n: number, seq: number | null) => Fault): void;
  setTarget(port: number): void;
  close(): Promise<void>;
}

function parseBatch(body: Buffer): Attempt["batch"] {
  try {
    const b = JSON.parse(gunzipSync(body).toString("utf8")) as Attempt["batch"];
    return b && typeof b.batchSeq === "number" ? b : null;
  } catch {
    return null;
  }
}

export async function startRecordingProxy(targetPort: number): Promise<RecordingProxy> {
  let target = targetPort;
  let decide: (n: number, seq: number | null) => Fault = () => ({ kind: "pass" });
  const attempts: Attempt[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const header = Number(req.headers["x-rpcpulse-batch-seq"]);
      const seq = Number.isInteger(header) ? header : null;
      const fault = decide(attempts.length + 1, seq);
      const attempt: Attempt = {
        seq,
        batch: parseBatch(body),
        fault: fault.kind,
        upstreamStatus: null,
        upstreamBody: "",
        answered: null,
      };
      attempts.push(attempt);
      if (fault.kind === "refuse") {
        attempt.answered = 503;
        res.writeHead(503, { "content-type": "text/plain" }).end("injected by the test proxy");
        return;
      }
      const headers: IncomingHttpHeaders = { ...req.headers, ...(fault.kind === "rewrite" ? fault.headers : {}) };
      const upstream = request(
        { host: "127.0.0.1", port: target, method: req.method, path: req.url, headers },
        (up) => {
          const parts: Buffer[] = [];
          up.on("data", (c: Buffer) => parts.push(c));
          up.on("end", () => {
            const text = Buffer.concat(parts);
            attempt.upstreamStatus = up.statusCode ?? null;
            attempt.upstreamBody = text.toString("utf8");
            if (fault.kind === "swallow") {
              attempt.answered = 502;
              res.writeHead(502, { "content-type": "text/plain" }).end("injected after forwarding");
              return;
            }
            attempt.answered = up.statusCode ?? null;
            const out = { ...up.headers };
            delete out["transfer-encoding"];
            out["content-length"] = String(text.length);
            const answer = () => res.writeHead(up.statusCode ?? 502, out).end(text);
            if (fault.kind === "slow") setTimeout(answer, fault.delayMs);
            else answer();
          });
        },
      );
      // Ingest down: the agent sees its connection dropped, as with a dead upstream behind a balancer.
      upstream.on("error", () => req.socket.destroy());
      upstream.end(body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/v1/ingest`,
    attempts,
    setFault: (d) => (decide = d),
    setTarget: (p) => (target = p),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** seq -> the sample times of that batch, from every parsed attempt; throws if a seq was sent with two different bodies. */
export function sealedBatches(attempts: Attempt[]): Map<number, { sentAt: string; times: string[] }> {
  const bySeq = new Map<number, { sentAt: string; times: string[] }>();
  for (const a of attempts) {
    if (!a.batch) continue;
    const entry = { sentAt: a.batch.sentAt, times: a.batch.samples.map((s) => s.collectedAt) };
    const seen = bySeq.get(a.batch.batchSeq);
    if (seen && JSON.stringify(seen) !== JSON.stringify(entry)) {
      throw new Error(`batchSeq ${a.batch.batchSeq} was sent with two different batches (a reused sequence number)`);
    }
    bySeq.set(a.batch.batchSeq, entry);
  }
  return bySeq;
}
