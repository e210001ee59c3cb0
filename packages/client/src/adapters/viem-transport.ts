import { createTransport, fallback, http, type EIP1193RequestFn, type HttpTransportConfig, type Transport } from "viem";
import {
  classifyJsonRpcError,
  createEndpointPicker,
  ethereumHeadOf,
  NoEndpointError,
  type EndpointPicker,
  type EndpointPickerOptions,
  type FailureVerdict,
} from "../index.js";

/**
 * `rpcPulse({ network, apiBase })`: a viem Transport over the directory's ranked list, usable wherever
 * `http()` or `fallback()` is (`createPublicClient`, `createWalletClient`, inside another `fallback`).
 *
 * Each request goes through viem's own `fallback` of `http` transports, built in the picker's current
 * order (best first, open breakers and dead endpoints last). One `http()` per URL is kept for the life of
 * the transport, so viem's JSON-RPC batching (`http: { batch: true }`) works as with a plain `http(url)`.
 * Every outcome is reported back to the picker (latency, failures, `eth_blockNumber` heads), so the
 * order of the next request already reflects this one. Imports only the core entry (kept external in
 * the build) and viem, an optional peer dependency.
 */

interface RpcPulseTransportSettings {
  /** Options of each endpoint's `http()` transport (batching, fetch options, timeout, hooks). */
  http?: Omit<HttpTransportConfig, "key" | "name" | "retryCount" | "methods"> | undefined;
  /** How many endpoints one request may try, in the picker's order (default 3). */
  maxEndpoints?: number | undefined;
  /** Retries of a whole request after every tried endpoint failed (default: the client's, viem's 3). */
  retryCount?: number | undefined;
  retryDelay?: number | undefined;
  /** Errors that go back to the caller instead of the next endpoint (default: request errors such as reverts). */
  shouldThrow?: ((error: Error) => boolean) | undefined;
  key?: string | undefined;
  name?: string | undefined;
}

/** Either the picker's options (one picker is created, shared by every client of this transport), or a picker. */
export type RpcPulseTransportConfig = RpcPulseTransportSettings &
  ((EndpointPickerOptions & { picker?: undefined }) | { picker: EndpointPicker });

export type RpcPulseTransport = Transport<"rpcPulse", { picker: EndpointPicker }>;

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  status?: unknown;
  details?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** Is a viem request error the endpoint's fault (try the next one) or the request's (hand it back)? */
export function classifyViemError(error: unknown): FailureVerdict {
  let current = error as ErrorShape | undefined;
  for (let depth = 0; current && typeof current === "object" && depth < 6; depth += 1) {
    if (current.status === 429) return { retry: true, kind: "rate-limited" };
    if (current.name === "TimeoutError") return { retry: true, kind: "timeout" };
    if (current.name === "HttpRequestError") return { retry: true, kind: "http" };
    if (current.name === "RpcRequestError" && typeof current.code === "number") {
      const detail = typeof current.details === "string" ? current.details : String(current.message ?? "");
      return classifyJsonRpcError(current.code, detail);
    }
    current = current.cause as ErrorShape | undefined;
  }
  // Errors thrown by viem for an answer it could not use (codes 3, 4001, -32003 ...) carry a code.
  if (typeof (error as ErrorShape)?.code === "number") {
    const e = error as ErrorShape;
    return classifyJsonRpcError(e.code as number, String(e.details ?? e.message ?? ""));
  }
  return { retry: true, kind: "error" };
}

function createReportingHttp(
  picker: EndpointPicker,
  url: string,
  config: RpcPulseTransportSettings["http"],
): Transport {
  const inner = http(url, { ...config, retryCount: 0 });
  const leaseMs = config?.timeout ?? 10_000;
  return (params) => {
    const transport = inner(params);
    const request: typeof transport.request = async (args, options) => {
      picker.claimAttempt(url, leaseMs);
      const started = Date.now();
      try {
        const result: unknown = await transport.request(args, options);
        const head = args.method === "eth_blockNumber" ? ethereumHeadOf(result) : undefined;
        // A stale head is recorded as a failure by reportHead; the answer still goes to the caller.
        if (head === undefined || !picker.reportHead(url, head)) picker.reportSuccess(url, Date.now() - started);
        return result as never;
      } catch (error) {
        const verdict = classifyViemError(error);
        if (verdict.retry) picker.reportFailure(url, verdict.kind);
        else picker.reportSuccess(url, Date.now() - started); // it answered; the request was wrong
        throw error;
      }
    };
    return { ...transport, request };
  };
}

export function rpcPulse(config: RpcPulseTransportConfig): RpcPulseTransport {
  const { key = "rpcPulse", name = "RPC Pulse", maxEndpoints = 3, retryDelay } = config;
  const shouldThrow = config.shouldThrow ?? ((error: Error) => !classifyViemError(error).retry);
  let picker: EndpointPicker | undefined = config.picker;
  const perUrl = new Map<string, Transport>();

  const pickerOf = (): EndpointPicker => {
    // Created on first use, then shared by every client built with this transport (one health view).
    picker ??= createEndpointPicker(config as EndpointPickerOptions);
    return picker;
  };

  const transportFor = (p: EndpointPicker, url: string): Transport => {
    let transport = perUrl.get(url);
    if (!transport) {
      transport = createReportingHttp(p, url, config.http);
      perUrl.set(url, transport);
    }
    return transport;
  };

  return ({ chain, pollingInterval, retryCount: clientRetryCount, timeout }) => {
    const p = pickerOf();
    type RequestOptions = Parameters<EIP1193RequestFn>[1];
    const request = async ({ method, params }: { method: string; params?: unknown }, options?: RequestOptions) => {
      if (p.urls().length === 0) await p.ready();
      const urls = p.urls().slice(0, Math.max(1, maxEndpoints));
      if (urls.length === 0) throw new NoEndpointError();
      if (perUrl.size > 4 * Math.max(8, p.urls().length)) {
        const listed = new Set(p.urls());
        for (const url of perUrl.keys()) if (!listed.has(url)) perUrl.delete(url);
      }
      const ordered = fallback(
        urls.map((url) => transportFor(p, url)),
        { rank: false, retryCount: 0, shouldThrow },
      )({ chain, pollingInterval, timeout, retryCount: 0 });
      return ordered.request({ method, params } as never, options);
    };
    return createTransport(
      {
        key,
        name,
        type: "rpcPulse",
        retryCount: config.retryCount ?? clientRetryCount,
        retryDelay,
        timeout,
        request: request as EIP1193RequestFn,
      },
      { picker: p },
    );
  };
}
