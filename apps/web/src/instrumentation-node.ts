import { getEnv } from "./env.js";
import { startServer } from "./server/startup.js";

/** Node.js side of instrumentation.ts: validate the environment, then start the server's services. */
export async function registerNode(): Promise<void> {
  await startServer(getEnv());
}
