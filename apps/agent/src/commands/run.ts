import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { createLogger, RPCPULSE_VERSION, type Logger } from "@rpcpulse/config";
import { WIRE_FORMAT_VERSION, type AgentBatch, type AgentSample } from "@rpcpulse/domain";
import { UsageError, type AgentConfig } from "../config/load.js";
import { backoffDelayMs, postBatch } from "../push/sender.js";
import { readOrCreateInstallId } from "../push/install-id.js";
import { Spool } from "../push/spool.js";
import { createPrometheusOutputs } from "../prometheus/prometheus-outputs.js";
import { createVantageProber, type VantageProber } from "../vantage/vantage-prober.js";
import { createSampler } from "./collect.js";
import { CONFIG_HELP, CONFIG_OPTIONS, configFromFlags, parseCommandArgs } from "./options.js";

export const RUN_HELP = `rpcpulse-agent run [options]

Collect a sample every --interval, write it as a gzip'd batch to the spool in --state-dir
(fsync'd), and push the spool oldest-first to --ingest-url with the agent token. 429 and 503 with
Retry-After wait that long (at most 1 h; batches kept); other 5xx, network errors and 401/403 back
off exponentially with jitter (batches kept);
other 4xx are logged and the batch dropped. SIGHUP re-reads the config file and the token file
(the Prometheus settings below take effect on restart).
With --dry-run, batches are printed to stdout and nothing is written or sent.
--metrics-listen serves the newest sample at /metrics; --textfile rewrites a node_exporter
textfile-collector file after each sample; --node-metrics-url reads the node's own metrics.

${CONFIG_HELP}`;

function readToken(config: AgentConfig): string | null {
  if (config.tokenFile) {
    try {
      const t = readFileSync(config.tokenFile, "utf8").trim();
      if (t) return t;
    } catch (error) {
      throw new UsageError(
        `--token-file ${config.tokenFile}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
  }
  return config.token ?? null;
}

function checkPushConfig(config: AgentConfig): string | null {
  if (config.dryRun) return null;
  if (!config.ingestUrl)
    throw new UsageError("run: --ingest-url (or RPCPULSE_INGEST_URL / field ingestUrl) is required unless --dry-run");
  const token = readToken(config);
  if (!token)
    throw new UsageError(
      "run: an agent token is required: --token-file (RPCPULSE_TOKEN_FILE / tokenFile) or RPCPULSE_TOKEN",
    );
  return token;
}

export async function runCommand(args: string[]): Promise<number> {
  const { values } = parseCommandArgs(args, { ...CONFIG_OPTIONS, help: { type: "boolean", short: "h" } });
  if (values.help) {
    process.stdout.write(`${RUN_HELP}\n`);
    return 0;
  }
  let config = configFromFlags(values);
  let token = checkPushConfig(config);
  const log: Logger = createLogger({ name: "rpcpulse-agent", level: config.logLevel, destination: process.stderr });
  let sampler = createSampler(config);
  const prometheus = await createPrometheusOutputs(config.prometheus, {
    nodeId: config.nodeId,
    timeoutMs: config.rpcTimeoutMs,
    log,
  });
  let vantage: VantageProber | null = config.vantage ? createVantageProber(config.vantage, log) : null;
  vantage?.start();
  const host = hostname().slice(0, 253) || "unknown";
  const spool = config.dryRun
    ? null
    : new Spool({
        dir: join(config.stateDir, "spool"),
        maxBytes: config.spoolMaxBytes,
        maxAgeMs: config.spoolMaxAgeMs,
      });
  // Sent with every batch: the server de-duplicates per (node, install, batchSeq).
  const installId = config.dryRun ? undefined : readOrCreateInstallId(config.stateDir);
  let dryRunSeq = 0;
  let stopping = false;
  let wake: (() => void) | null = null;
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        wake = null;
        resolve();
      }
      wake = done;
    });
  /** Wakes an idle sender when a batch is spooled. */
  const senderWake: { fn: (() => void) | null } = { fn: null };
  /** Cuts a backoff/Retry-After wait short: only on SIGHUP (maybe a new token) and on stop. */
  const backoffWake: { fn: (() => void) | null } = { fn: null };

  process.on("SIGHUP", () => {
    try {
      const next = configFromFlags(values);
      const nextToken = checkPushConfig(next);
      const vantageChanged = JSON.stringify(next.vantage) !== JSON.stringify(config.vantage);
      if (JSON.stringify(next.prometheus) !== JSON.stringify(config.prometheus) || next.nodeId !== config.nodeId)
        log.warn("SIGHUP: the Prometheus settings and node id in /metrics change on restart only");
      config = next;
      token = nextToken;
      sampler = createSampler(config);
      if (vantageChanged) {
        void vantage?.stop();
        vantage = config.vantage ? createVantageProber(config.vantage, log) : null;
        vantage?.start();
      }
      log.info(
        { configPath: config.configPath ?? null, intervalMs: config.intervalMs },
        "configuration reloaded (SIGHUP)",
      );
      senderWake.fn?.();
      backoffWake.fn?.();
    } catch (error) {
      log.error(
        { err: error instanceof Error ? error.message : String(error) },
        "SIGHUP: configuration invalid, keeping the previous one",
      );
    }
  });
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    wake?.();
    senderWake.fn?.();
    backoffWake.fn?.();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  log.info(
    {
      version: RPCPULSE_VERSION,
      family: config.family,
      intervalMs: config.intervalMs,
      vantage: config.vantage ? { region: config.vantage.region, networks: config.vantage.networks } : null,
      dryRun: config.dryRun,
      spool: spool ? join(config.stateDir, "spool") : null,
      backlog: spool?.size ?? 0,
    },
    "agent started",
  );

  const sender = spool ? sendLoop(spool) : Promise.resolve();

  async function sendLoop(s: Spool): Promise<void> {
    let attempt = 0;
    while (!stopping) {
      const entry = s.oldest();
      if (!entry || !token || !config.ingestUrl) {
        await new Promise<void>((resolve) => {
          senderWake.fn = () => {
            senderWake.fn = null;
            resolve();
          };
        });
        continue;
      }
      const outcome = await postBatch(config.ingestUrl, token, entry.seq, s.read(entry));
      let delay = 0;
      switch (outcome.kind) {
        case "delivered":
          s.remove(entry.seq);
          attempt = 0;
          log.debug({ batchSeq: entry.seq, backlog: s.size }, "batch delivered");
          continue;
        case "rejected":
          s.remove(entry.seq);
          attempt = 0;
          log.error(
            { batchSeq: entry.seq, status: outcome.status, reason: outcome.reason },
            "batch rejected by the server: dropped",
          );
          continue;
        case "retry-after":
          // 429: exactly as told. 503: never sooner than told, and backing off further while the
          // server stays busy (the jittered backoff spreads agents that were told the same).
          delay = outcome.status === 503 ? Math.max(outcome.delayMs, backoffDelayMs(attempt++)) : outcome.delayMs;
          log.warn(
            { batchSeq: entry.seq, status: outcome.status, retryAfterMs: delay, backlog: s.size },
            outcome.status === 429
              ? "rate limited (429): waiting for Retry-After"
              : "server busy (503): keeping the spool, waiting for Retry-After",
          );
          break;
        case "backoff":
          delay = backoffDelayMs(attempt++);
          log.warn(
            { batchSeq: entry.seq, status: outcome.status, reason: outcome.reason, retryInMs: delay, backlog: s.size },
            "push failed: backing off",
          );
          break;
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          backoffWake.fn = null;
          resolve();
        }, delay);
        backoffWake.fn = () => {
          clearTimeout(t);
          backoffWake.fn = null;
          resolve();
        };
      });
    }
  }

  while (!stopping) {
    const started = Date.now();
    let sample: AgentSample;
    try {
      sample = await sampler.collect();
    } catch (error) {
      log.error({ err: error instanceof Error ? error.message : String(error) }, "collection failed");
      await sleep(config.intervalMs);
      continue;
    }
    await prometheus.enrichSample(sample);
    if (sample.self && spool) {
      sample.self.spoolBacklog = spool.size;
      sample.self.spoolDropped = spool.dropped;
    }
    const seq = spool ? spool.nextSeq() : ++dryRunSeq;
    const probes = vantage?.drain() ?? [];
    const batch: AgentBatch = {
      wireVersion: WIRE_FORMAT_VERSION,
      agent: { version: RPCPULSE_VERSION, hostname: host },
      ...(config.nodeId ? { nodeId: config.nodeId } : {}),
      batchSeq: seq,
      ...(installId ? { installId } : {}),
      sentAt: new Date().toISOString(),
      samples: [sample],
      ...(config.vantage && probes.length > 0 ? { vantage: { region: config.vantage.region, probes } } : {}),
    };
    if (!spool) {
      process.stdout.write(`${JSON.stringify(batch)}\n`);
    } else {
      const before = spool.dropped;
      spool.enqueue(seq, gzipSync(JSON.stringify(batch)));
      if (spool.dropped > before)
        log.warn(
          { dropped: spool.dropped - before, totalDropped: spool.dropped },
          "spool bound reached: oldest batches dropped",
        );
      senderWake.fn?.();
    }
    prometheus.publishSample(
      sample,
      spool ? { backlogBatches: spool.size, droppedBatches: spool.dropped, bytes: spool.totalBytes() } : null,
    );
    if (stopping) break;
    await sleep(Math.max(0, config.intervalMs - (Date.now() - started)));
  }
  await Promise.all([sender, vantage?.stop(), prometheus.close()]);
  log.info("stopped");
  return 0;
}
