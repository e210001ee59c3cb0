import { availableParallelism } from "node:os";
import { createLogger } from "@rpcpulse/config";
import { ingestWorkerCount, loadIngestEnv } from "./env.js";
import { isIngestClusterPrimary, runIngestCluster } from "./run-ingest-cluster.js";
import { startIngest } from "./start-ingest.js";

const env = loadIngestEnv();
const log = createLogger({ name: "ingest", level: env.LOG_LEVEL, format: env.LOG_FORMAT });

process.on("unhandledRejection", (reason) => {
  log.error({ err: reason instanceof Error ? reason.message : String(reason) }, "unhandled rejection");
});

const workers = ingestWorkerCount(env, availableParallelism());

if (workers > 1 && isIngestClusterPrimary()) {
  // The primary only supervises; each forked worker runs this file again and serves requests.
  const ingestCluster = runIngestCluster({ workers, log, onStartFailure: () => process.exit(1) });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      log.info({ signal }, "shutting down the ingest workers");
      void ingestCluster.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
} else {
  try {
    const ingest = await startIngest(env, log);
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.once(signal, () => {
        log.info({ signal }, "shutting down");
        void ingest.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      });
    }
  } catch (error) {
    log.fatal({ err: error instanceof Error ? error.message : String(error) }, "ingest failed to start");
    process.exit(1);
  }
}
