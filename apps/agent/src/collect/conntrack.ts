import { join } from "node:path";
import type { ConntrackGroup } from "@rpcpulse/domain";
import { readIntOrNull } from "./proc-files.js";

/** nf_conntrack count/max; null when the conntrack module is not loaded (the files do not exist). */
export function collectConntrack(procRoot: string): ConntrackGroup | null {
  const count = readIntOrNull(join(procRoot, "sys/net/netfilter/nf_conntrack_count"));
  const max = readIntOrNull(join(procRoot, "sys/net/netfilter/nf_conntrack_max"));
  if (count === null || max === null) return null;
  return { count, max };
}
