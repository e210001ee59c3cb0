import "server-only";
import { resolveTxt } from "node:dns/promises";
import type { ClaimDeps } from "@rpcpulse/services";
import { getRuntime } from "../../server/runtime.js";

/** Claim verification needs the database and TXT lookups through the system resolver. */
export function getClaimDeps(): ClaimDeps {
  return { sql: getRuntime().sql, resolveTxt: (name) => resolveTxt(name) };
}
