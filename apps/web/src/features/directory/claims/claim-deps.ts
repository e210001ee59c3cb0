import "server-only";
import { resolveTxt } from "node:dns/promises";
import { createSafeHttpClient, type SafeHttpClient } from "@rpcpulse/prober";
import type { ClaimDeps } from "@rpcpulse/services/directory";
import { getRuntime } from "@/server/runtime.js";

const holder = globalThis as typeof globalThis & { __rpcpulseClaimHttp?: SafeHttpClient };

/** The prober's SSRF-safe client for well-known claim files: public addresses only unless CLAIM_ALLOW_PRIVATE. */
function claimHttpClient(): SafeHttpClient {
  holder.__rpcpulseClaimHttp ??= createSafeHttpClient({
    allowPrivate: getRuntime().env.CLAIM_ALLOW_PRIVATE,
    timeoutMs: 5_000,
    userAgent: "rpcpulse-claim-check/0.1",
  });
  return holder.__rpcpulseClaimHttp;
}

/** Claim verification needs the database, TXT lookups through the system resolver, and HTTPS fetches. */
export function getClaimDeps(): ClaimDeps {
  return { sql: getRuntime().sql, resolveTxt: (name) => resolveTxt(name), http: claimHttpClient() };
}
