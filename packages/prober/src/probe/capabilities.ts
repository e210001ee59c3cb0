import { findNetwork } from "@rpcpulse/domain";
import { toProbeError } from "../ssrf/errors.js";
import type { SafeHttpClient } from "../ssrf/http-client.js";
import { coverageOf } from "./capability-settle.js";
import { checkCors } from "./cors-check.js";
import { FAMILY_ADAPTERS, LOGS_RANGES } from "./families/index.js";
import { createFamilyContext } from "./families/types.js";
import type { CapabilityReport, ProbeTarget, Tri, WebSocketCapability } from "./types.js";
import { CAPABILITY_RETRY, createRetrier, type RetryPolicy } from "./transient-retry.js";
import { checkWebSocket } from "./websocket-check.js";

export interface CapabilityOptions {
  /** Blocks behind head for the archive check; default per family (1,000,000; Hive: block 1). */
  archiveDepth?: number;
  /** Wait for a new head on the WebSocket subscription; default one block interval + 2 s. */
  wsHeadWaitMs?: number;
  /** eth_getLogs ranges to try, widest first. Default LOGS_RANGES (10,000 down to 100). */
  logsRanges?: readonly number[];
  /** Skip the WebSocket check. */
  websocket?: boolean;
  /** Retries of transient failures within the check; default CAPABILITY_RETRY, false for none. */
  retry?: RetryPolicy | false;
  /** Pause between retries (tests make it instant). Default a timer. */
  wait?: (ms: number) => Promise<unknown>;
  now?: () => number;
}

/** ws(s) URL of an endpoint: the explicit one, else the http(s) URL with the scheme swapped. */
export function websocketUrlOf(target: ProbeTarget): string {
  if (target.wsUrl) return target.wsUrl;
  const u = new URL(target.url);
  u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
  return u.href;
}

const NO_WS: WebSocketCapability = {
  supported: null,
  url: null,
  openMs: null,
  callMs: null,
  subscription: null,
  firstHeadMs: null,
  headDelayMs: null,
  error: null,
};

/**
 * The slow-cadence checks (hourly or daily, not every probe): archive, method coverage, batch,
 * eth_getLogs range, WebSocket + new-head latency, CORS, client version. Sequential on purpose:
 * a public endpoint gets at most one request from us at a time. Transient failures (5xx, 429,
 * timeouts, resets) are retried with a short backoff within a per-check budget; what still could not
 * be told is null ("unknown"), never "unsupported". When the head call fails, every method group is
 * listed as unknown rather than the report being left empty.
 */
export async function checkCapabilities(
  target: ProbeTarget,
  client: SafeHttpClient,
  options: CapabilityOptions = {},
): Promise<CapabilityReport> {
  const now = options.now ?? Date.now;
  const adapter = FAMILY_ADAPTERS[target.family];
  const retrier = createRetrier(
    options.retry === false ? { ...CAPABILITY_RETRY, attempts: 1 } : (options.retry ?? CAPABILITY_RETRY),
    options.wait,
  );
  const checkClient = retrier.wrapClient(client);
  const base = createFamilyContext(target, checkClient);
  const ctx = { ...base, rpc: (method: string, params: unknown) => retrier.retryRpc(() => base.rpc(method, params)) };
  const errors: string[] = [];
  const report: CapabilityReport = {
    url: target.url,
    family: target.family,
    network: target.network,
    checkedAt: now(),
    headBlock: null,
    archive: null,
    archiveBlock: null,
    archiveDetail: null,
    methods: {},
    coverage: null,
    batch: null,
    logsMaxRange: null,
    logsRangeLimited: null,
    websocket: NO_WS,
    cors: { allowed: false, status: null, allowOrigin: null, allowMethods: null, allowHeaders: null },
    clientVersion: null,
    errors,
  };
  try {
    report.headBlock = (await adapter.head(ctx, { finality: false })).headBlock;
  } catch (err) {
    errors.push(`head: ${toProbeError(err).message}`);
  }
  const head = report.headBlock;
  if (head !== null) {
    const archive = await adapter.archive(ctx, head, options.archiveDepth ?? adapter.archiveDepth);
    report.archive = archive.supported;
    report.archiveBlock = archive.block;
    report.archiveDetail = archive.detail;
    report.methods = await adapter.methods(ctx, head);
    report.coverage = coverageOf(report.methods);
    if (adapter.extras)
      Object.assign(report, await adapter.extras(ctx, head, { logsRanges: options.logsRanges ?? LOGS_RANGES }));
  } else {
    report.methods = Object.fromEntries(adapter.methodGroups.map((group): [string, Tri] => [group, null]));
  }
  if (adapter.batch) report.batch = await adapter.batch(ctx);
  report.clientVersion = await adapter.clientVersion(ctx);
  report.cors = await checkCors(checkClient, target.url, adapter.corsMethod);
  if (adapter.ws && options.websocket !== false) {
    const interval = findNetwork(target.network)?.blockIntervalMs ?? 6000;
    report.websocket = await checkWebSocket(client, websocketUrlOf(target), adapter.ws, {
      headWaitMs: options.wsHeadWaitMs ?? interval + 2000,
      replyTimeoutMs: client.options.timeoutMs,
      knownHead: head,
      now,
    });
  }
  report.retries = retrier.retries;
  return report;
}
