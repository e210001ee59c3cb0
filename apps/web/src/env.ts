import { createHash } from "node:crypto";
import { z } from "zod";
import {
  databaseEnv,
  databaseReadEnv,
  loadEnvOrExit,
  loggingEnv,
  metricsEnv,
  redisEnv,
  runtimeEnv,
  secretsEnv,
  smtpEnv,
} from "@rpcpulse/config";

/**
 * The web app's environment: one schema, parsed once at start (instrumentation.ts) and on first
 * use. The only module that reads process.env (through loadEnvOrExit, and NEXT_RUNTIME below).
 */
export const webEnvShape = {
  ...databaseEnv,
  ...databaseReadEnv,
  ...metricsEnv,
  ...redisEnv,
  ...loggingEnv,
  ...runtimeEnv,
  ...secretsEnv,
  /** The SMTP relay for account mail (password reset, email verification, invitations); same as the worker's. */
  ...smtpEnv,
  /** Signs session cookies. Required in production; at least 32 characters. */
  BETTER_AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Public origin of the app; the only origin trusted for state-changing requests. */
  APP_BASE_URL: z
    .url()
    .refine((v) => v.startsWith("http://") || v.startsWith("https://"), "must be an http(s) URL")
    .default("http://localhost:3000"),
  /** TCP port the web server listens on (next start / the standalone server.js). */
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /**
   * Same setting as the worker's: the prober may reach loopback/private addresses (self-hosted lists,
   * demo, tests), so submitted endpoints on such addresses are accepted. Metadata stays refused.
   */
  PROBE_ALLOW_PRIVATE: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /** The ingest API as agents reach it (apps/ingest, POST /v1/ingest); put into install commands. */
  INGEST_PUBLIC_URL: z
    .url()
    .refine((v) => v.startsWith("http://") || v.startsWith("https://"), "must be an http(s) URL")
    .default("http://localhost:3003/v1/ingest"),
  /**
   * Public status pages are rendered once and served from memory to every visitor (with a fresh CSP
   * nonce each) for this long, then refreshed in the background; 0 renders every request.
   */
  STATUS_PAGE_CACHE_FRESH_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  /** Requests per minute one organization API key may make to /api/orgs/... (429 with Retry-After beyond). */
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
  /** Origin this server answers on from inside, for the status-page cache's renders (default http://127.0.0.1:$PORT). */
  WEB_INTERNAL_URL: z
    .url()
    .refine((v) => v.startsWith("http://") || v.startsWith("https://"), "must be an http(s) URL")
    .optional(),
  /**
   * Let endpoint-claim checks fetch https://<host>/.well-known/rpcpulse-claim from loopback/private
   * addresses (self-hosted lists, demo, tests; like the worker's PROBE_ALLOW_PRIVATE). Metadata stays blocked.
   */
  CLAIM_ALLOW_PRIVATE: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /** The agent's downloads served at /downloads and /install.sh (default: apps/agent/dist of this checkout). */
  AGENT_DOWNLOADS_DIR: z.string().min(1).optional(),
  /** Comma-separated reverse proxy IPs/CIDRs whose X-Forwarded-For hops are trusted (rate limiting). */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
};

type ParsedEnv = z.infer<z.ZodObject<typeof webEnvShape>>;
export type WebEnv = Omit<ParsedEnv, "BETTER_AUTH_SECRET"> & {
  BETTER_AUTH_SECRET: string;
  /** True when BETTER_AUTH_SECRET was derived because none was set (dev and demo only). */
  authSecretDerived: boolean;
};

let cached: WebEnv | undefined;

function fail(message: string): never {
  process.stderr.write(`rpcpulse-web: Invalid environment:\n  ${message}\n`);
  process.exit(1);
}

/** Parse and check the environment once; print the bad variable and exit(1) on error. */
export function getEnv(): WebEnv {
  if (cached) return cached;
  const parsed = loadEnvOrExit(webEnvShape, "rpcpulse-web");
  let secret = parsed.BETTER_AUTH_SECRET;
  let derived = false;
  if (!secret) {
    if (parsed.NODE_ENV === "production" && !parsed.DEMO_MODE) {
      fail("BETTER_AUTH_SECRET: required when NODE_ENV=production (it is not set)");
    }
    // Dev/demo only: stable per database so sessions survive restarts. Warned about at start.
    secret = createHash("sha256").update(`rpcpulse-insecure-dev-secret:${parsed.DATABASE_URL}`).digest("hex");
    derived = true;
  }
  cached = { ...parsed, BETTER_AUTH_SECRET: secret, authSecretDerived: derived };
  return cached;
}

/**
 * Where this server can be reached from inside: WEB_INTERNAL_URL, else loopback on the port Next
 * listens on (Next sets PORT when it starts listening, which may follow the first getEnv()).
 */
export function getInternalOrigin(): string {
  const env = getEnv();
  if (env.WEB_INTERNAL_URL) return env.WEB_INTERNAL_URL.replace(/\/$/, "");
  return `http://127.0.0.1:${process.env.PORT ?? env.PORT}`;
}

/** True in `next dev` (NODE_ENV is inlined by Next at build time). */
export function isDevServer(): boolean {
  return process.env.NODE_ENV === "development";
}
