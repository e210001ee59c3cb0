import cluster, { type Worker } from "node:cluster";
import type { Logger } from "@rpcpulse/config";

/**
 * The ingest primary when INGEST_WORKERS > 1: forks that many ingest processes sharing the one
 * listening port (node:cluster hands connections out round robin), restarts a worker that dies
 * (with a growing delay if it keeps dying at once), and on stop asks every worker to drain and
 * waits for them. The workers run startIngest exactly as a single process does; everything they
 * share (rate limits, the dedupe set, the queue) lives in Redis, so N processes behave as one.
 */
export interface IngestCluster {
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that ran at least this long before dying restarts at once. */
const HEALTHY_RUN_MS = 10_000;

export function runIngestCluster(options: {
  workers: number;
  log: Logger;
  /**
   * A worker died before any worker ever listened (port taken, bad configuration): restarting
   * would only loop, so the remaining workers are stopped and this is called (the entry exits 1).
   */
  onStartFailure: () => void;
}): IngestCluster {
  const { workers, log } = options;
  let stopping = false;
  let listened = false;
  let restartDelayMs = 0;
  const startedAt = new Map<Worker, number>();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
  };

  cluster.on("listening", () => {
    listened = true;
  });

  cluster.on("exit", (worker, code, signal) => {
    const ranMs = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) return;
    if (!listened) {
      log.fatal({ pid: worker.process.pid, code, signal }, "an ingest worker failed to start; stopping");
      void stopAll().finally(options.onStartFailure);
      return;
    }
    restartDelayMs = ranMs >= HEALTHY_RUN_MS ? 0 : Math.min(MAX_RESTART_DELAY_MS, Math.max(250, restartDelayMs * 2));
    log.warn(
      { pid: worker.process.pid, code, signal, restartInMs: restartDelayMs },
      "ingest worker exited; restarting",
    );
    // Not unref'd: with every worker dead, this timer is what keeps the primary alive.
    setTimeout(() => {
      if (!stopping) fork();
    }, restartDelayMs);
  });

  for (let i = 0; i < workers; i++) fork();
  log.info({ workers }, "ingest cluster started");

  async function stopAll(): Promise<void> {
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
    await Promise.all(
      alive.map(
        (worker) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => worker.process.kill("SIGKILL"), STOP_GRACE_MS);
            worker.once("exit", () => {
              clearTimeout(timer);
              resolve();
            });
            // Each worker drains its own connections (startIngest's stop) and exits.
            worker.process.kill("SIGTERM");
          }),
      ),
    );
  }

  return { stop: stopAll };
}

export const isIngestClusterPrimary = () => cluster.isPrimary;
