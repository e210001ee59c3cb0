import { AttemptTimeoutError, classifyError, type CallContext, type FailureVerdict } from "./json-rpc.js";
import type { EndpointPicker } from "./picker.js";
import type { FailureKind, RankedEndpoint } from "./types.js";

export interface FailoverTransportOptions<Req, Res> {
  /** Run one request against one endpoint URL. Honour `ctx.signal` to stop work on timeout. */
  call: (url: string, request: Req, ctx: CallContext) => Promise<Res>;
  /** Attempts per request, over different endpoints first (default 3). */
  maxAttempts?: number;
  /** Per-attempt timeout (default 5000 ms). */
  perAttemptTimeoutMs?: number;
  /** Head block carried by a result, if any; a stale head makes the transport try the next endpoint. */
  headOf?: (request: Req, result: Res) => number | undefined;
  /** Fail over, or hand the error to the caller? (default: `classifyError`). */
  classify?: (error: unknown) => FailureVerdict;
  /** Call `wsUrl` instead of `url`, and only use endpoints that have one. */
  websocket?: boolean;
  /** Wait before going round the endpoints again when every one failed in this request (default 200 ms, doubling, with jitter, max 5 s). */
  roundDelayMs?: number;
  random?: () => number;
}

export interface AttemptRecord {
  url: string;
  kind: FailureKind;
  error: unknown;
}

/** Every attempt of one request failed. */
export class FailoverError extends Error {
  constructor(readonly attempts: AttemptRecord[]) {
    const detail = attempts.map(
      (a) => `${a.url}: ${a.kind} (${a.error instanceof Error ? a.error.message : String(a.error)})`,
    );
    super(`all ${attempts.length} attempts failed: ${detail.join("; ")}`);
    this.name = "FailoverError";
  }
}

export class NoEndpointError extends Error {
  constructor() {
    super("no endpoint known: the directory was unreachable and no fallback list was given");
    this.name = "NoEndpointError";
  }
}

export interface FailoverTransport<Req, Res> {
  run(request: Req, options?: { signal?: AbortSignal }): Promise<Res>;
  readonly picker: EndpointPicker;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new Error("aborted");
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }
    function onAbort(): void {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Run `promise`, rejecting with AttemptTimeoutError (and aborting `controller`) after `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number, url: string, controller: AbortController): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new AttemptTimeoutError(url, ms);
      controller.abort(error);
      reject(error);
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Run calls against the picker's best endpoint and fail over on errors, timeouts and stale heads.
 * Health is reported back to the picker (keyed by the endpoint's HTTP URL), so every call improves the
 * order for the next one. When every attempt returned a stale head, the freshest stale answer is returned
 * rather than an error: a halted chain is not an outage of every endpoint.
 */
export function createFailoverTransport<Req, Res>(
  picker: EndpointPicker,
  options: FailoverTransportOptions<Req, Res>,
): FailoverTransport<Req, Res> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const perAttemptTimeoutMs = options.perAttemptTimeoutMs ?? 5000;
  const classify = options.classify ?? classifyError;
  const roundDelayMs = options.roundDelayMs ?? 200;
  const random = options.random ?? Math.random;
  const ws = options.websocket === true;
  const target = (e: RankedEndpoint): string => (ws ? (e.wsUrl as string) : e.url);

  async function run(request: Req, runOptions: { signal?: AbortSignal } = {}): Promise<Res> {
    const outer = runOptions.signal;
    const attempts: AttemptRecord[] = [];
    const tried = new Set<string>();
    let round = 0;
    let freshestStale: { head: number; result: Res } | undefined;

    for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
      if (outer?.aborted) throw abortError(outer);
      let list = picker.candidates({ websocket: ws }).filter((e) => !tried.has(e.url));
      if (list.length === 0) {
        if (tried.size === 0) throw new NoEndpointError();
        // Every endpoint already failed once in this request: back off (with jitter), then go round again.
        const ceiling = Math.min(5000, roundDelayMs * 2 ** round);
        round += 1;
        await sleep(ceiling / 2 + random() * (ceiling / 2), outer);
        tried.clear();
        list = picker.candidates({ websocket: ws });
      }
      const endpoint = list[0] as RankedEndpoint;
      tried.add(endpoint.url);
      picker.claimAttempt(endpoint.url, perAttemptTimeoutMs);
      const url = target(endpoint);
      const controller = new AbortController();
      const onOuterAbort = (): void => controller.abort(outer?.reason);
      outer?.addEventListener("abort", onOuterAbort, { once: true });
      const started = Date.now();
      try {
        const result = await withTimeout(
          options.call(url, request, { signal: controller.signal }),
          perAttemptTimeoutMs,
          url,
          controller,
        );
        const latencyMs = Date.now() - started;
        const head = options.headOf?.(request, result);
        if (head !== undefined && picker.reportHead(endpoint.url, head)) {
          attempts.push({ url, kind: "stale-head", error: new Error(`head ${head} is stale`) });
          if (!freshestStale || head > freshestStale.head) freshestStale = { head, result };
          continue;
        }
        picker.reportSuccess(endpoint.url, latencyMs);
        return result;
      } catch (error) {
        if (outer?.aborted) throw abortError(outer);
        const verdict = classify(error);
        if (!verdict.retry) {
          // The endpoint answered; the request itself is wrong. That says nothing bad about the endpoint.
          picker.reportSuccess(endpoint.url, Date.now() - started);
          throw error;
        }
        picker.reportFailure(endpoint.url, verdict.kind);
        attempts.push({ url, kind: verdict.kind, error });
      } finally {
        outer?.removeEventListener("abort", onOuterAbort);
      }
    }
    if (freshestStale) return freshestStale.result;
    throw new FailoverError(attempts);
  }

  return { run, picker };
}
