/**
 * Every failure of a probe carries one reason code, so results can be grouped and published
 * ("12 % of probes to X timed out") without parsing messages.
 *
 * - `ssrf_blocked`: the target (URL form, name, resolved address or redirect hop) is not allowed.
 * - `bad_scheme`: the URL is not http/https (or ws/wss where a WebSocket is asked for), or does not parse.
 * - `timeout`: connect or total deadline passed.
 * - `too_large`: the response (wire or decompressed) exceeded the byte cap.
 * - `dns`: the name did not resolve.
 * - `connect`: TCP connection refused, reset or unreachable.
 * - `tls`: TLS handshake or certificate failure.
 * - `http`: a response arrived but was not usable (status, redirects, framing).
 * - `rpc`: a response arrived but the JSON-RPC/REST payload was an error or had the wrong shape.
 */
export const PROBE_ERROR_REASONS = [
  "ssrf_blocked",
  "bad_scheme",
  "timeout",
  "too_large",
  "dns",
  "connect",
  "tls",
  "http",
  "rpc",
] as const;
export type ProbeErrorReason = (typeof PROBE_ERROR_REASONS)[number];

export class ProbeError extends Error {
  readonly reason: ProbeErrorReason;
  override readonly name = "ProbeError";

  constructor(reason: ProbeErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

const TLS_CODES = new Set([
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_TLS_HANDSHAKE_TIMEOUT",
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "EPROTO",
]);
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "ENODATA", "ESERVFAIL"]);
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "EPIPE",
  "ECONNABORTED",
]);

/** Maps any error thrown while talking to a target onto a ProbeError (idempotent). */
export function toProbeError(err: unknown): ProbeError {
  if (err instanceof ProbeError) return err;
  // A ProbeError from another copy of this module (a bundler may load the prober twice, as Next.js
  // does for route handlers and server actions) fails instanceof but keeps its name and reason.
  const shaped = err as { name?: unknown; reason?: unknown; message?: unknown } | null;
  if (
    shaped?.name === "ProbeError" &&
    typeof shaped.message === "string" &&
    (PROBE_ERROR_REASONS as readonly unknown[]).includes(shaped.reason)
  ) {
    return new ProbeError(shaped.reason as ProbeErrorReason, shaped.message, { cause: err });
  }
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const message = typeof e?.message === "string" ? e.message : String(err);
  if (DNS_CODES.has(code)) return new ProbeError("dns", `${code}: ${message}`, { cause: err });
  if (
    TLS_CODES.has(code) ||
    code.startsWith("ERR_SSL_") ||
    code.startsWith("ERR_TLS_") ||
    /certificate|ssl|tls/i.test(message)
  ) {
    return new ProbeError("tls", `${code || "tls"}: ${message}`, { cause: err });
  }
  if (CONNECT_CODES.has(code)) return new ProbeError("connect", `${code}: ${message}`, { cause: err });
  if (code === "ETIMEDOUT" || code === "ESOCKETTIMEDOUT") return new ProbeError("timeout", message, { cause: err });
  if (code === "HPE_HEADER_OVERFLOW" || code.startsWith("HPE_") || code === "Z_DATA_ERROR") {
    return new ProbeError("http", `${code}: ${message}`, { cause: err });
  }
  return new ProbeError("http", code ? `${code}: ${message}` : message, { cause: err });
}
