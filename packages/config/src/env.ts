import { z } from "zod";
import { AppError } from "./errors.js";

/**
 * Env fragments shared by the deployables. Each app composes the fragments it needs into
 * one schema and parses it once at start (`parseEnv`); nothing else reads process.env.
 */
export const databaseEnv = {
  DATABASE_URL: z
    .string()
    .url()
    .refine((v) => v.startsWith("postgres://") || v.startsWith("postgresql://"), "must be a postgres:// URL")
    .default("postgresql://postgres@127.0.0.1:5432/rpcpulse"),
  /** auto: TimescaleDB when the extension is available, else plain PostgreSQL. */
  STORAGE_MODE: z.enum(["auto", "timescale", "plain"]).default("auto"),
};

export const redisEnv = {
  REDIS_URL: z
    .string()
    .url()
    .refine((v) => v.startsWith("redis://") || v.startsWith("rediss://"), "must be a redis:// URL")
    .default("redis://127.0.0.1:6379"),
  /** Key prefix so several installs (or test runs) can share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9:_-]+$/i)
    .default("rpcpulse"),
};

export const loggingEnv = {
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_FORMAT: z.enum(["json", "pretty"]).default("json"),
};

export const runtimeEnv = {
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Demo mode seeds a demo account and fleet; never enable it on a real deployment. */
  DEMO_MODE: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
};

/**
 * Key material for secrets stored encrypted (notification channel configs: webhook signing secrets,
 * Slack/Discord URLs, Telegram tokens). Web and worker must share it. Required in production; in
 * development and demo mode a key is derived from DATABASE_URL when it is not set.
 */
export const secretsEnv = {
  SECRETS_ENCRYPTION_KEY: z.string().min(32, "must be at least 32 characters").optional(),
};

/** Parse `source` against `shape`; throws AppError("CONFIG") naming each bad variable. */
export function parseEnv<S extends z.ZodRawShape>(
  shape: S,
  source: Record<string, string | undefined>,
): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".") || "(env)";
    const value = source[String(issue.path[0])];
    const got = value === undefined ? "it is not set" : "it is set but invalid";
    return `${name}: ${issue.message} (${got})`;
  });
  throw new AppError("CONFIG", `Invalid environment:\n  ${problems.join("\n  ")}`, {
    details: { variables: result.error.issues.map((i) => i.path.join(".")) },
  });
}

/**
 * For process entry points: parse, or print the problem and exit(1). Reads process.env here,
 * the one sanctioned place.
 */
export function loadEnvOrExit<S extends z.ZodRawShape>(shape: S, appName: string): z.infer<z.ZodObject<S>> {
  try {
    return parseEnv(shape, process.env);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${appName}: ${message}\n`);
    process.exit(1);
  }
}
