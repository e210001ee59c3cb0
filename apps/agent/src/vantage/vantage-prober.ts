import { RPCPULSE_VERSION, type Logger } from "@rpcpulse/config";
import { VANTAGE_LIMITS, type AgentProbe } from "@rpcpulse/domain";
import {
  createSafeHttpClient,
  probeEndpoint,
  type ProbeResult,
  type SafeHttpClient,
} from "@rpcpulse/prober/head-probe";
import type { VantageConfig } from "../config/load.js";
import { fetchEndpointList, type ListedEndpoint } from "./endpoint-list.js";

/** Probe results waiting for a batch, at most (the oldest are dropped beyond it). */
export const MAX_BUFFERED_PROBES = VANTAGE_LIMITS.maxProbesPerBatch * 5;
const LIST_TIMEOUT_MS = 10_000;
const PROBE_TIMEOUT_MS = 10_000;

export interface VantageProber {
  /** Up to `max` buffered results, oldest first, removed from the buffer. */
  drain(max?: number): AgentProbe[];
  readonly buffered: number;
  readonly dropped: number;
  /** Runs one round now (tests, and the loop). Resolves with the number of probes made. */
  runRound(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

const clampMs = (v: number): number => Math.min(600_000, Math.max(0, v));

/** ProbeResult of @rpcpulse/prober → the wire's AgentProbe. */
export function toAgentProbe(endpointId: string, r: ProbeResult): AgentProbe {
  const message = r.errorMessage ?? r.rpcError?.message ?? null;
  return {
    endpointId,
    startedAt: new Date(r.startedAt).toISOString(),
    ok: r.ok,
    httpStatus: r.httpStatus,
    errorClass: r.errorClass,
    errorMessage: message === null ? null : message.slice(0, VANTAGE_LIMITS.maxMessageLength),
    rateLimited: r.rateLimited,
    responseBytes: Math.min(2_147_483_647, r.responseBytes),
    headBlock: r.headBlock,
    headTime: r.headTime === null ? null : new Date(r.headTime).toISOString(),
    finalizedBlock: r.finalizedBlock,
    phases: r.phases
      ? {
          dnsMs: clampMs(r.phases.dnsMs),
          connectMs: clampMs(r.phases.connectMs),
          tlsMs: clampMs(r.phases.tlsMs),
          firstByteMs: clampMs(r.phases.ttfbMs),
          totalMs: clampMs(r.phases.totalMs),
        }
      : null,
  };
}

/**
 * Opt-in vantage probing: every `intervalMs`, fetch the public list of each configured network
 * from the RPC Pulse API and probe each endpoint once with the SSRF-safe prober, at most
 * `concurrency` at a time and `ratePerSecond` starts per second. Results wait in a bounded buffer
 * until the next batch takes them.
 */
export function createVantageProber(
  config: VantageConfig,
  log: Logger,
  options: { client?: SafeHttpClient } = {},
): VantageProber {
  const client =
    options.client ??
    createSafeHttpClient({
      allowPrivate: config.allowPrivate,
      timeoutMs: PROBE_TIMEOUT_MS,
      userAgent: `rpcpulse-agent/${RPCPULSE_VERSION} (vantage ${config.region})`,
    });
  let buffer: AgentProbe[] = [];
  let dropped = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<number> | null = null;
  const lists = new Map<string, ListedEndpoint[]>();

  let wakeSleep: (() => void) | null = null;
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        wakeSleep = null;
        resolve();
      }
      wakeSleep = done;
    });

  const keep = (probe: AgentProbe): void => {
    buffer.push(probe);
    if (buffer.length > MAX_BUFFERED_PROBES) {
      dropped += buffer.length - MAX_BUFFERED_PROBES;
      buffer = buffer.slice(buffer.length - MAX_BUFFERED_PROBES);
    }
  };

  /** Each target once: a start every 1/rate s at most, `concurrency` in flight at most. */
  async function probeAll(targets: readonly ListedEndpoint[]): Promise<number> {
    const gapMs = 1000 / config.ratePerSecond;
    const inFlight = new Set<Promise<void>>();
    let done = 0;
    let lastStart = -Infinity;
    for (const target of targets) {
      if (stopped) break;
      while (inFlight.size >= config.concurrency) await Promise.race(inFlight);
      const wait = lastStart + gapMs - performance.now();
      if (wait > 0) await sleep(wait);
      if (stopped) break;
      lastStart = performance.now();
      const p: Promise<void> = probeEndpoint(
        { url: target.url, family: target.family, network: target.network },
        client,
      )
        .then((result) => {
          keep(toAgentProbe(target.id, result));
          done++;
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    return done;
  }

  async function refreshLists(): Promise<ListedEndpoint[]> {
    await Promise.all(
      config.networks.map(async (network) => {
        try {
          const list = await fetchEndpointList(config.directoryUrl, network, {
            timeoutMs: LIST_TIMEOUT_MS,
            userAgent: `rpcpulse-agent/${RPCPULSE_VERSION}`,
          });
          lists.set(network, list);
        } catch (error) {
          // Keep probing the last list we had; the next round tries again.
          log.warn(
            { network, err: error instanceof Error ? error.message : String(error) },
            "vantage: endpoint list not fetched",
          );
        }
      }),
    );
    return config.networks.flatMap((n) => lists.get(n) ?? []);
  }

  async function round(): Promise<number> {
    const targets = await refreshLists();
    if (stopped || targets.length === 0) return 0;
    const started = performance.now();
    const probes = await probeAll(targets);
    log.debug({ probes, durationMs: Math.round(performance.now() - started) }, "vantage round");
    return probes;
  }

  const schedule = (delayMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      const started = Date.now();
      current = round()
        .catch((error: unknown) => {
          log.warn({ err: error instanceof Error ? error.message : String(error) }, "vantage round failed");
          return 0;
        })
        .finally(() => {
          current = null;
          schedule(Math.max(0, config.intervalMs - (Date.now() - started)));
        });
    }, delayMs);
  };

  return {
    drain(max = VANTAGE_LIMITS.maxProbesPerBatch) {
      const out = buffer.slice(0, max);
      buffer = buffer.slice(out.length);
      return out;
    },
    get buffered() {
      return buffer.length;
    },
    get dropped() {
      return dropped;
    },
    runRound: round,
    start() {
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wakeSleep?.();
      await current;
    },
  };
}
