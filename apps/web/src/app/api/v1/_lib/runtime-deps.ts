import "server-only";
import { getRuntime } from "@/server/runtime.js";
import type { PublicApiLogger } from "./public-api.js";

/** What the public directory routes need from the process runtime: reads from the replica when one is healthy. */
export function directoryDeps(): { sql: ReturnType<typeof getRuntime>["reads"]["sql"]; log: PublicApiLogger } {
  const { reads, logger } = getRuntime();
  return { sql: reads.sql, log: logger };
}
