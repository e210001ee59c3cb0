import { HealthView, type BreakerOptions, type EndpointHealth } from "./health.js";
import type { CallContext } from "./json-rpc.js";
import type {
  FailureKind,
  FallbackEndpoint,
  FetchLike,
  ListSource,
  ListStorage,
  RankedEndpoint,
  RankedList,
} from "./types.js";
import { endpointsFromFallback, parseRankedList } from "./validate.js";

export interface HeadCheckOptions {
  /** Read an endpoint's head block (see `createHeadReader`). */
  getHead: (url: string, ctx: CallContext) => Promise<number>;
  /** How often to check (default 15 000 ms). */
  intervalMs?: number;
  /** How many of the best candidates to check each time (default 3). */
  top?: number;
}

export interface EndpointPickerOptions {
  /** Network slug, e.g. "hive-mainnet", "ethereum-mainnet", "polkadot". */
  network: string;
  /** Base URL of the RPC Pulse directory, e.g. "https://rpcpulse.example". */
  apiBase: string;
  region?: string;
  /** Required capabilities, e.g. ["archive", "websocket"]. */
  capabilities?: readonly string[];
  minScore?: number;
  /** Ranking window (default "24h"). */
  window?: string;
  /** List refresh period (default 60 000 ms; 0 = only on demand). */
  refreshMs?: number;
  /** Timeout of one API request and of one built-in head check (default 5000 ms). */
  timeoutMs?: number;
  fetch?: FetchLike;
  /** Bundled list used while the API is unreachable and nothing is stored. */
  fallback?: readonly FallbackEndpoint[];
  /** Keeps the last good list across restarts (e.g. `localStorage`). */
  storage?: ListStorage;
  /** Blocks an endpoint may lag the best head seen before it counts as failing (default 5). */
  maxLagBlocks?: number;
  breaker?: BreakerOptions;
  headCheck?: HeadCheckOptions;
  /** Called with errors of background work (list refresh, head checks). */
  onError?: (error: unknown) => void;
  now?: () => number;
  random?: () => number;
}

export interface EndpointPicker {
  /** Resolves once the first API request has finished (successfully or not). Never rejects. */
  ready(): Promise<void>;
  /** The best endpoint to use now, or undefined when no list is known. */
  current(): RankedEndpoint | undefined;
  /**
   * Every known endpoint in the order to try them: usable endpoints (breaker closed or half-open) by rank,
   * then endpoints whose breaker is open by retry time, then endpoints the directory marks dead (listing
   * status or window health).
   * `websocket: true` keeps only endpoints with a wsUrl.
   */
  candidates(options?: { websocket?: boolean }): RankedEndpoint[];
  /** `candidates()` as HTTP URLs. */
  urls(): string[];
  /** `candidates({ websocket: true })` as WebSocket URLs. */
  wsUrls(): string[];
  /**
   * A call to `url` starts now. If its breaker is half-open, this call is the one trial: other callers skip
   * the endpoint until the call reports back or `leaseMs` passes. The failover transport calls this.
   */
  claimAttempt(url: string, leaseMs: number): void;
  reportFailure(url: string, kind?: FailureKind): void;
  reportSuccess(url: string, latencyMs?: number): void;
  /** Report a head block seen from `url`; returns true when it is stale (then counted as a failure). */
  reportHead(url: string, head: number): boolean;
  /** Would `head` count as stale against the best head seen? */
  isStaleHead(head: number): boolean;
  health(): EndpointHealth[];
  /** Run the built-in head check now (no-op without `headCheck`). */
  checkHeads(): Promise<void>;
  /** Fetch the list now; resolves true when the API answered with a valid list. */
  refresh(): Promise<boolean>;
  /** Called with the new `urls()` whenever the order changes. Returns an unsubscribe function. */
  onChange(listener: (urls: string[]) => void): () => void;
  /** Where the served list came from. */
  readonly source: ListSource;
  /** The last good list (with the directory's fields), or null. */
  list(): RankedList | null;
  /** The error of the last failed refresh, cleared by a successful one. */
  readonly lastError: unknown;
  close(): void;
}

type Timer = ReturnType<typeof setTimeout>;

/** Let Node exit while the picker is idle; browsers have no unref. */
function unref(timer: Timer): Timer {
  const t = timer as unknown as { unref?: () => void };
  if (typeof t.unref === "function") t.unref();
  return timer;
}

export function buildListUrl(options: EndpointPickerOptions): string {
  const base = options.apiBase.replace(/\/+$/, "");
  const params = new URLSearchParams();
  if (options.region) params.set("region", options.region);
  if (options.capabilities && options.capabilities.length > 0) params.set("capability", options.capabilities.join(","));
  if (options.minScore !== undefined) params.set("minScore", String(options.minScore));
  params.set("window", options.window ?? "24h");
  return `${base}/api/v1/chains/${encodeURIComponent(options.network)}/endpoints?${params.toString()}`;
}

/** Apply the filters again on our side: a stored list or an API that ignores a parameter must not widen them. */
function matchesFilters(endpoint: RankedEndpoint, options: EndpointPickerOptions): boolean {
  if (options.minScore !== undefined && endpoint.score < options.minScore) return false;
  for (const cap of options.capabilities ?? []) if (endpoint.capabilities[cap] !== true) return false;
  return true;
}

export function createEndpointPicker(options: EndpointPickerOptions): EndpointPicker {
  const now = options.now ?? Date.now;
  const refreshMs = options.refreshMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 5000;
  const listUrl = buildListUrl(options);
  const storageKey = `rpcpulse:endpoints:${listUrl}`;
  const health = new HealthView({
    ...options.breaker,
    maxLagBlocks: options.maxLagBlocks,
    now,
    random: options.random,
  });
  const listeners = new Set<(urls: string[]) => void>();
  const timers: Timer[] = [];

  let endpoints: RankedEndpoint[] = [];
  let lastList: RankedList | null = null;
  let source: ListSource = "none";
  let lastError: unknown = null;
  let fetchedAt = 0;
  let inflight: Promise<boolean> | null = null;
  let closed = false;
  let lastOrder = "";
  const reportError = (error: unknown): void => options.onError?.(error);

  function setEndpoints(list: RankedEndpoint[], from: ListSource): void {
    endpoints = [...list].sort((a, b) => a.rank - b.rank);
    source = from;
    health.retain(new Set(endpoints.map((e) => e.url)));
    emitIfChanged();
  }

  function candidates(opts: { websocket?: boolean } = {}): RankedEndpoint[] {
    const usable: RankedEndpoint[] = [];
    const open: { e: RankedEndpoint; until: number }[] = [];
    const dead: RankedEndpoint[] = [];
    for (const e of endpoints) {
      if (opts.websocket && !e.wsUrl) continue;
      if (e.status === "dead" || e.health === "dead") dead.push(e);
      else if (health.state(e.url) === "open") open.push({ e, until: health.get(e.url).openUntil });
      else usable.push(e);
    }
    open.sort((a, b) => a.until - b.until);
    return [...usable, ...open.map((o) => o.e), ...dead];
  }

  function emitIfChanged(): void {
    const urls = candidates().map((e) => e.url);
    const order = urls.join("\n");
    if (order === lastOrder) return;
    lastOrder = order;
    for (const listener of listeners) {
      try {
        listener(urls);
      } catch (error) {
        reportError(error);
      }
    }
  }

  function loadStored(): boolean {
    if (!options.storage) return false;
    try {
      const text = options.storage.getItem(storageKey);
      if (!text) return false;
      const list = parseRankedList(JSON.parse(text), options.network);
      lastList = list;
      setEndpoints(
        list.endpoints.filter((e) => matchesFilters(e, options)),
        "storage",
      );
      return true;
    } catch (error) {
      reportError(error);
      return false;
    }
  }

  async function fetchList(): Promise<boolean> {
    const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await doFetch(listUrl, { headers: { accept: "application/json" }, signal: controller.signal });
      if (!response.ok) throw new Error(`directory API answered HTTP ${response.status} for ${listUrl}`);
      const list = parseRankedList(await response.json(), options.network);
      const usable = list.endpoints.filter((e) => matchesFilters(e, options));
      if (usable.length === 0 && endpoints.length > 0)
        throw new Error(`directory API listed no endpoint matching the filters for ${options.network}`);
      lastList = list;
      fetchedAt = now();
      lastError = null;
      setEndpoints(usable, "api");
      try {
        options.storage?.setItem(storageKey, JSON.stringify(list));
      } catch (error) {
        reportError(error); // a full or disabled storage must not break the picker
      }
      return true;
    } catch (error) {
      lastError = error;
      fetchedAt = now(); // failed attempts also wait for the next period instead of hammering the API
      reportError(error);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  function refresh(): Promise<boolean> {
    if (closed) return Promise.resolve(false);
    if (!inflight) inflight = fetchList().finally(() => (inflight = null));
    return inflight;
  }

  /** Stale-while-revalidate: serve what we have, and start a refresh when it is older than refreshMs. */
  function revalidateIfStale(): void {
    if (refreshMs > 0 && !inflight && !closed && now() - fetchedAt >= refreshMs) void refresh();
  }

  async function checkHeads(check: HeadCheckOptions): Promise<void> {
    const targets = candidates().slice(0, check.top ?? 3);
    const results = await Promise.all(
      targets.map(async (e) => {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), timeoutMs);
        const started = now();
        try {
          const head = await check.getHead(e.url, { signal: controller.signal });
          return { url: e.url, head, latencyMs: now() - started };
        } catch (error) {
          health.recordFailure(e.url, controller.signal.aborted ? "timeout" : "error");
          reportError(error);
          return null;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    // Record the highest head first, so every endpoint of this round is judged against it.
    const answered = results.filter((r) => r !== null).sort((a, b) => b.head - a.head);
    for (const r of answered) if (!health.recordHead(r.url, r.head)) health.recordSuccess(r.url, r.latencyMs);
    emitIfChanged();
  }

  // Start: stored list, else the bundled fallback, served at once; the API request runs behind them.
  if (!loadStored() && options.fallback && options.fallback.length > 0)
    setEndpoints(endpointsFromFallback(options.fallback), "fallback");
  const first = refresh().then(() => undefined);
  // One light tick: refresh when due, and tell listeners when a breaker's wait ran out (open -> half-open).
  const tickMs = Math.max(250, Math.min(refreshMs > 0 ? refreshMs : 5000, 5000));
  timers.push(
    unref(
      setInterval(() => {
        revalidateIfStale();
        emitIfChanged();
      }, tickMs),
    ),
  );
  if (options.headCheck) {
    const check = options.headCheck;
    timers.push(unref(setInterval(() => void checkHeads(check), check.intervalMs ?? 15_000)));
  }

  return {
    ready: () => first,
    current() {
      revalidateIfStale();
      return candidates()[0];
    },
    candidates,
    urls: () => candidates().map((e) => e.url),
    wsUrls: () => candidates({ websocket: true }).map((e) => e.wsUrl as string),
    claimAttempt(url, leaseMs) {
      health.claimAttempt(url, leaseMs);
      emitIfChanged();
    },
    reportFailure(url, kind = "error") {
      health.recordFailure(url, kind);
      emitIfChanged();
    },
    reportSuccess(url, latencyMs) {
      health.recordSuccess(url, latencyMs);
      emitIfChanged();
    },
    reportHead(url, head) {
      const stale = health.recordHead(url, head);
      emitIfChanged();
      return stale;
    },
    isStaleHead: (head) => health.isStaleHead(head),
    health: () => health.all(),
    refresh,
    checkHeads: () => (options.headCheck && !closed ? checkHeads(options.headCheck) : Promise.resolve()),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get source() {
      return source;
    },
    list: () => lastList,
    get lastError() {
      return lastError;
    },
    close() {
      closed = true;
      for (const t of timers) clearInterval(t);
      listeners.clear();
    },
  };
}
