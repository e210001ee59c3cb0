import http from "node:http";
import https from "node:https";
import { isIP, type Socket } from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { ProbeError, toProbeError } from "./errors.js";
import { checkAddress, type AddressPolicy } from "./ip-policy.js";
import {
  createSafeLookup,
  systemResolver,
  type LookupFunction,
  type Resolver,
  type SafeLookupHooks,
} from "./safe-lookup.js";
import { checkUrl, DEFAULT_ALLOWED_PORTS, HTTP_SCHEMES, type CheckedUrl, type UrlPolicy } from "./url-policy.js";

export interface SafeHttpClientOptions {
  /** Reach loopback/RFC 1918/ULA/link-local/CGNAT targets (self-hosted deployments, demo, tests). Default false. */
  allowPrivate?: boolean;
  /** Deadline for the whole request, redirects and body included. Default 10 000 ms. */
  timeoutMs?: number;
  /** Deadline for DNS + TCP (+ TLS) of each hop. Default min(5 000, timeoutMs). */
  connectTimeoutMs?: number;
  /** Cap on response bytes, counted on the wire and again after decompression. Default 256 KiB. */
  maxResponseBytes?: number;
  /** Redirect hops followed, each re-validated. Default 3. */
  maxRedirects?: number;
  /** Exact IPs reachable whatever their class (one self-hosted node; test servers). Metadata stays blocked. */
  allowAddresses?: readonly string[];
  /** Ports allowed; "any" lifts the list. Default DEFAULT_ALLOWED_PORTS, or "any" with allowPrivate. */
  allowedPorts?: readonly number[] | "any";
  /** DNS answers (tests inject scripted ones). Default: the system resolver. */
  resolver?: Resolver;
  userAgent?: string;
  /** Ask for and decode gzip/deflate/br. Default true. */
  decompress?: boolean;
  /** Extra trusted CA certificates (PEM), for TLS targets in tests. */
  ca?: string | Buffer | Array<string | Buffer>;
  /**
   * Source address of outgoing connections (a multi-homed prober: one egress address per region);
   * must be of the targets' family. Default: the system's choice.
   */
  localAddress?: string;
}

export interface ResolvedClientOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  maxRedirects: number;
  allowedPorts: readonly number[] | null;
  userAgent: string;
  decompress: boolean;
}

/**
 * Timing of one request, in milliseconds with sub-millisecond precision (hrtime). dns/connect/tls/wait
 * are durations of their phase on the final hop; ttfbMs and totalMs are cumulative from the start of
 * the first hop (like curl's time_starttransfer and time_total), redirects included.
 */
export interface Phases {
  dnsMs: number;
  connectMs: number;
  tlsMs: number;
  /** Request written + server think time: first byte minus connection ready. */
  waitMs: number;
  ttfbMs: number;
  totalMs: number;
  /** Time spent on earlier hops when redirects were followed. */
  redirectMs: number;
}

export interface SafeResponse {
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Bytes received on the wire (body only). */
  wireBytes: number;
  /** Body bytes after decoding content-encoding. */
  bodyBytes: number;
  redirects: string[];
  remoteAddress: string | null;
  phases: Phases;
}

export interface SafeRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Overrides for this request only. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** false: return 3xx responses as they are. Default true. */
  followRedirects?: boolean;
}

export interface SafeHttpClient {
  readonly options: Readonly<ResolvedClientOptions>;
  request(url: string | URL, init?: SafeRequestInit): Promise<SafeResponse>;
  /** Static URL checks only (no DNS), for the given schemes (default http/https). */
  checkUrl(url: string | URL, schemes?: readonly string[]): CheckedUrl;
  /** A connect-time checking `lookup` for other transports (WebSocket). */
  createLookup(hooks?: SafeLookupHooks): LookupFunction;
  /** Verifies an IP an already-open socket is connected to (defence in depth). */
  isAddressAllowed(address: string): boolean;
  readonly ca: string | Buffer | Array<string | Buffer> | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const ms = (a: bigint, b: bigint): number => Number(b - a) / 1e6;

interface HopResult {
  response: Omit<SafeResponse, "redirects" | "url" | "phases"> & { hopPhases: Omit<Phases, "redirectMs"> };
  location: string | null;
}

export function createSafeHttpClient(options: SafeHttpClientOptions = {}): SafeHttpClient {
  const allowPrivate = options.allowPrivate ?? false;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const resolved: ResolvedClientOptions = {
    allowPrivate,
    timeoutMs,
    connectTimeoutMs: Math.min(options.connectTimeoutMs ?? 5_000, timeoutMs),
    maxResponseBytes: options.maxResponseBytes ?? 256 * 1024,
    maxRedirects: options.maxRedirects ?? 3,
    allowedPorts:
      options.allowedPorts === "any" ? null : (options.allowedPorts ?? (allowPrivate ? null : DEFAULT_ALLOWED_PORTS)),
    userAgent: options.userAgent ?? "rpcpulse-prober/0.1",
    decompress: options.decompress ?? true,
  };
  const resolver = options.resolver ?? systemResolver;
  const addressPolicy: AddressPolicy = { allowPrivate, allowAddresses: options.allowAddresses ?? [] };
  const policyFor = (schemes: readonly string[]): UrlPolicy => ({
    ...addressPolicy,
    schemes,
    allowedPorts: resolved.allowedPorts,
  });

  function requestOnce(
    target: CheckedUrl,
    init: SafeRequestInit,
    deadlineNs: bigint,
    maxBytes: number,
  ): Promise<HopResult> {
    return new Promise<HopResult>((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      let tResolved: bigint | null = target.ipLiteral ? t0 : null;
      let tConnect: bigint | null = null;
      let tSecure: bigint | null = null;
      let tResponse: bigint | null = null;
      let remoteAddress: string | null = null;
      let settled = false;
      const lookup = createSafeLookup(resolver, addressPolicy, { onResolved: (at) => (tResolved = at) });
      const headers: Record<string, string> = {
        "user-agent": resolved.userAgent,
        accept: "application/json",
        "accept-encoding": resolved.decompress ? "gzip, deflate, br" : "identity",
        connection: "close",
        ...init.headers,
      };
      const body =
        init.body === undefined ? undefined : typeof init.body === "string" ? Buffer.from(init.body) : init.body;
      if (body) headers["content-length"] = String(body.length);
      const reqOptions: https.RequestOptions = {
        host: target.host,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method: init.method ?? "GET",
        headers,
        agent: false,
        lookup: lookup as unknown as https.RequestOptions["lookup"],
      };
      if (target.ipLiteral) reqOptions.family = isIP(target.host);
      if (options.localAddress) reqOptions.localAddress = options.localAddress;
      if (target.secure) {
        if (!target.ipLiteral) reqOptions.servername = target.host;
        if (options.ca) reqOptions.ca = options.ca;
      }
      const req = (target.secure ? https : http).request(reqOptions);

      const cleanup = (): void => {
        clearTimeout(totalTimer);
        clearTimeout(connectTimer);
      };
      const fail = (err: unknown): void => {
        if (settled) return;
        settled = true;
        cleanup();
        req.destroy();
        reject(toProbeError(err));
      };
      const remaining = Math.max(1, Number(deadlineNs - t0) / 1e6);
      const totalTimer = setTimeout(
        () => fail(new ProbeError("timeout", `no complete response within ${resolved.timeoutMs} ms`)),
        remaining,
      );
      const connectTimer = setTimeout(
        () => fail(new ProbeError("timeout", `connection not established within ${resolved.connectTimeoutMs} ms`)),
        Math.min(remaining, resolved.connectTimeoutMs),
      );

      req.on("socket", (socket: Socket) => {
        socket.once("connect", () => {
          tConnect = process.hrtime.bigint();
          remoteAddress = socket.remoteAddress ?? null;
          // Defence in depth: the lookup already refused blocked answers; never talk to one anyway.
          if (!remoteAddress || !checkAddress(remoteAddress, addressPolicy).allowed) {
            fail(new ProbeError("ssrf_blocked", `connected address ${remoteAddress ?? "?"} is not allowed`));
            return;
          }
          if (!target.secure) clearTimeout(connectTimer);
        });
        socket.once("secureConnect", () => {
          tSecure = process.hrtime.bigint();
          clearTimeout(connectTimer);
        });
      });
      req.on("error", fail);
      req.on("response", (res: http.IncomingMessage) => {
        tResponse = process.hrtime.bigint();
        const status = res.statusCode ?? 0;
        const location = typeof res.headers.location === "string" ? res.headers.location : null;
        const finish = (buf: Buffer, wireBytes: number): void => {
          if (settled) return;
          settled = true;
          cleanup();
          const tEnd = process.hrtime.bigint();
          const ready = tSecure ?? tConnect ?? tResponse ?? t0;
          const resolvedAt = tResolved ?? t0;
          resolve({
            location: REDIRECT_STATUSES.has(status) ? location : null,
            response: {
              status,
              headers: res.headers,
              body: buf,
              wireBytes,
              bodyBytes: buf.length,
              remoteAddress,
              hopPhases: {
                dnsMs: ms(t0, resolvedAt),
                connectMs: tConnect ? ms(resolvedAt, tConnect) : 0,
                tlsMs: tSecure && tConnect ? ms(tConnect, tSecure) : 0,
                waitMs: ms(ready, tResponse ?? tEnd),
                ttfbMs: ms(t0, tResponse ?? tEnd),
                totalMs: ms(t0, tEnd),
              },
            },
          });
        };
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && declared > maxBytes) {
          fail(new ProbeError("too_large", `content-length ${declared} exceeds ${maxBytes} bytes`));
          return;
        }
        const encoding = String(res.headers["content-encoding"] ?? "identity")
          .trim()
          .toLowerCase();
        let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null = null;
        if (encoding === "gzip" || encoding === "x-gzip") decoder = zlib.createGunzip();
        else if (encoding === "deflate") decoder = zlib.createInflate();
        else if (encoding === "br") decoder = zlib.createBrotliDecompress();
        let wire = 0;
        let decoded = 0;
        const chunks: Buffer[] = [];
        const tooLarge = (what: string): void => {
          decoder?.destroy();
          res.destroy();
          fail(new ProbeError("too_large", `${what} response exceeds ${maxBytes} bytes`));
        };
        res.on("error", fail);
        res.on("close", () => {
          if (!res.complete) fail(new ProbeError("http", "connection closed before the response ended"));
        });
        res.on("data", (c: Buffer) => {
          wire += c.length;
          if (wire > maxBytes) tooLarge("wire");
        });
        const sink: Readable = decoder ? res.pipe(decoder) : res;
        if (decoder) decoder.on("error", (e) => fail(new ProbeError("http", `bad ${encoding} body: ${e.message}`)));
        sink.on("data", (c: Buffer) => {
          if (settled) return;
          decoded += c.length;
          if (decoded > maxBytes) {
            tooLarge("decompressed");
            return;
          }
          chunks.push(c);
        });
        sink.on("end", () => finish(Buffer.concat(chunks), wire));
      });
      req.end(body);
    });
  }

  async function request(input: string | URL, init: SafeRequestInit = {}): Promise<SafeResponse> {
    const httpPolicy = policyFor(HTTP_SCHEMES);
    let target = checkUrl(input, httpPolicy);
    const started = process.hrtime.bigint();
    const budget = init.timeoutMs ?? resolved.timeoutMs;
    const deadline = started + BigInt(Math.round(budget * 1e6));
    const maxBytes = init.maxResponseBytes ?? resolved.maxResponseBytes;
    let hopInit = init;
    const redirects: string[] = [];
    for (;;) {
      const hopStart = process.hrtime.bigint();
      const hop = await requestOnce(target, hopInit, deadline, maxBytes);
      if (hop.location !== null && init.followRedirects !== false) {
        if (redirects.length >= resolved.maxRedirects) {
          throw new ProbeError("http", `more than ${resolved.maxRedirects} redirects`);
        }
        // Absolute locations get the full raw-form checks; relative ones keep the validated host.
        const absolute = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(hop.location.trim());
        let next: URL;
        try {
          next = new URL(hop.location, target.url);
        } catch {
          throw new ProbeError("http", `unparseable redirect location ${JSON.stringify(hop.location.slice(0, 200))}`);
        }
        target = checkUrl(absolute ? hop.location.trim() : next.href, httpPolicy);
        redirects.push(target.url.href);
        const status = hop.response.status;
        const method = (hopInit.method ?? "GET").toUpperCase();
        if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
          const { body: _body, ...rest } = hopInit;
          const headers = { ...rest.headers };
          delete headers["content-type"];
          hopInit = { ...rest, method: "GET", headers };
        }
        continue;
      }
      const { hopPhases, ...response } = hop.response;
      const redirectMs = ms(started, hopStart);
      return {
        ...response,
        url: target.url.href,
        redirects,
        phases: {
          ...hopPhases,
          redirectMs,
          ttfbMs: redirectMs + hopPhases.ttfbMs,
          totalMs: redirectMs + hopPhases.totalMs,
        },
      };
    }
  }

  return {
    options: resolved,
    request,
    checkUrl: (url, schemes = HTTP_SCHEMES) => checkUrl(url, policyFor(schemes)),
    createLookup: (hooks) => createSafeLookup(resolver, addressPolicy, hooks),
    isAddressAllowed: (address) => checkAddress(address, addressPolicy).allowed,
    ca: options.ca,
  };
}
