import type { IncomingMessage } from "node:http";
import { createGunzip } from "node:zlib";
import { AppError } from "@rpcpulse/config";

export interface BodyLimits {
  /** Bytes as sent on the wire (compressed when gzip). */
  maxBodyBytes: number;
  /** Bytes after inflating; inflating stops as soon as this is passed. */
  maxInflatedBytes: number;
}

export type BodyEncoding = "gzip" | "identity";

const tooLarge = (message: string, limit: number) =>
  new AppError("PAYLOAD_TOO_LARGE", message, { details: { reason: "body_too_large", limitBytes: limit } });

/** Content-Encoding of an ingest request, or a 415-style refusal. */
export function bodyEncodingOf(req: IncomingMessage): BodyEncoding {
  const raw = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (raw === "gzip" || raw === "x-gzip") return "gzip";
  if (raw === "identity" || raw === "") return "identity";
  throw new AppError("VALIDATION", "Content-Encoding must be gzip or identity.", {
    details: { reason: "unsupported_media_type" },
  });
}

/** Content-Length above the cap: refuse before reading a byte. */
export function checkDeclaredLength(req: IncomingMessage, limits: BodyLimits): void {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limits.maxBodyBytes) {
    throw tooLarge(`Body larger than ${limits.maxBodyBytes} bytes.`, limits.maxBodyBytes);
  }
}

/**
 * Read the request body, inflating gzip as it streams. Memory stays bounded by the caps: the
 * compressed count and the inflated count are checked chunk by chunk, and the first byte past a
 * cap stops the read (a gzip bomb is refused after at most maxInflatedBytes of output).
 */
export function readRequestBody(req: IncomingMessage, encoding: BodyEncoding, limits: BodyLimits): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let inflated = 0;
    let settled = false;
    const gunzip = encoding === "gzip" ? createGunzip() : undefined;

    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
      gunzip?.removeAllListeners("data");
      gunzip?.destroy();
    };
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      chunks.length = 0;
      reject(error);
    };
    const succeed = () => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBodyBytes) {
        fail(tooLarge(`Body larger than ${limits.maxBodyBytes} bytes.`, limits.maxBodyBytes));
        return;
      }
      if (!gunzip) {
        if (received > limits.maxInflatedBytes) {
          fail(tooLarge(`Body larger than ${limits.maxInflatedBytes} bytes.`, limits.maxInflatedBytes));
          return;
        }
        chunks.push(chunk);
        return;
      }
      if (!gunzip.write(chunk)) {
        req.pause();
        gunzip.once("drain", () => req.resume());
      }
    };
    const onEnd = () => (gunzip ? gunzip.end() : succeed());
    const onError = (error: Error) => fail(error);
    const onAborted = () => fail(new Error("request aborted"));

    if (gunzip) {
      gunzip.on("data", (chunk: Buffer) => {
        inflated += chunk.length;
        if (inflated > limits.maxInflatedBytes) {
          fail(tooLarge(`Body inflates to more than ${limits.maxInflatedBytes} bytes.`, limits.maxInflatedBytes));
          return;
        }
        chunks.push(chunk);
      });
      gunzip.on("end", succeed);
      gunzip.on("error", () =>
        fail(new AppError("VALIDATION", "Body is not valid gzip.", { details: { reason: "invalid_gzip" } })),
      );
    }
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}
