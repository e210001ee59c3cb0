import { createLogger } from "@rpcpulse/config";
import { loadWorkerEnv } from "./env.js";
import { startWorker } from "./start-worker.js";

const env = loadWorkerEnv();
const log = createLogger({ name: "worker", level: env.LOG_LEVEL, format: env.LOG_FORMAT });

process.on("unhandledRejection", (reason) => {
  log.error({ err: reason instanceof Error ? reason.message : String(reason) }, "unhandled rejection");
});

try {
  const worker = await startWorker(env, log);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void worker.stop(signal).then((outcome) => process.exit(outcome === "clean" ? 0 : 1));
    });
  }
} catch (error) {
  log.fatal({ err: error instanceof Error ? error.message : String(error) }, "worker failed to start");
  process.exit(1);
}
