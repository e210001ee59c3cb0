import "server-only";
import { getRuntime } from "../../../../server/runtime.js";
import type { PublicApiLogger } from "./public-api.js";

/** What the public directory routes need from the process runtime. */
export function directoryDeps(): { sql: ReturnType<typeof getRuntime>["sql"]; log: PublicApiLogger } {
  const { sql, logger } = getRuntime();
  return { sql, log: logger };
}
