import { createLogger } from "@rpcpulse/config";
import { loadIngestEnv } from "./env.js";
import { startIngest } from "./start-ingest.js";

const env = loadIngestEnv();
const log = createLogger({ name: "ingest", level: env.LOG_LEVEL, format: env.LOG_FORMAT });

process.on("unhandledRejection", (reason) => {
  log.error({ err: reason instanceof Error ? reason.message : String(reason) }, "unhandled rejection");
});

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
