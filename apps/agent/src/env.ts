import { z } from "zod";
import { fieldSchemas, type FieldName, type PartialFields } from "./config/fields.js";

/**
 * The agent's environment: RPCPULSE_* variables, each validated with the same rules as the
 * matching flag and config-file field. The only module that reads process.env.
 */
export const ENV_NAMES = {
  family: "RPCPULSE_FAMILY",
  rpcUrl: "RPCPULSE_RPC_URL",
  interval: "RPCPULSE_INTERVAL",
  ports: "RPCPULSE_PORTS",
  dataDirs: "RPCPULSE_DATA_DIRS",
  topN: "RPCPULSE_TOP_N",
  dryRun: "RPCPULSE_DRY_RUN",
  nodeId: "RPCPULSE_NODE_ID",
  pid: "RPCPULSE_PID",
  processName: "RPCPULSE_PROCESS_NAME",
  stateDir: "RPCPULSE_STATE_DIR",
  ingestUrl: "RPCPULSE_INGEST_URL",
  tokenFile: "RPCPULSE_TOKEN_FILE",
  rpcTimeout: "RPCPULSE_RPC_TIMEOUT",
  spoolMaxMb: "RPCPULSE_SPOOL_MAX_MB",
  spoolMaxAge: "RPCPULSE_SPOOL_MAX_AGE",
  logLevel: "RPCPULSE_LOG_LEVEL",
  vantage: "RPCPULSE_VANTAGE",
  vantageRegion: "RPCPULSE_VANTAGE_REGION",
  vantageNetworks: "RPCPULSE_VANTAGE_NETWORKS",
  directoryUrl: "RPCPULSE_DIRECTORY_URL",
  vantageInterval: "RPCPULSE_VANTAGE_INTERVAL",
  vantageConcurrency: "RPCPULSE_VANTAGE_CONCURRENCY",
  vantageRate: "RPCPULSE_VANTAGE_RATE",
  vantageAllowPrivate: "RPCPULSE_VANTAGE_ALLOW_PRIVATE",
  metricsListen: "RPCPULSE_METRICS_LISTEN",
  textfile: "RPCPULSE_TEXTFILE",
  nodeMetricsUrl: "RPCPULSE_NODE_METRICS_URL",
  beaconUrl: "RPCPULSE_BEACON_URL",
} as const satisfies Record<FieldName, string>;

const optionalShape = Object.fromEntries(
  (Object.keys(ENV_NAMES) as FieldName[]).map((key) => [ENV_NAMES[key], fieldSchemas[key].optional()]),
) as { [K in FieldName as (typeof ENV_NAMES)[K]]: z.ZodOptional<(typeof fieldSchemas)[K]> };

export const agentEnvSchema = z.object({
  ...optionalShape,
  /** Path of the JSON config file (same as --config). */
  RPCPULSE_CONFIG: z.string().min(1).optional(),
  /** The ingest token itself (prefer RPCPULSE_TOKEN_FILE, which SIGHUP re-reads). */
  RPCPULSE_TOKEN: z.string().min(8).max(512).optional(),
});

export interface AgentEnv {
  fields: PartialFields;
  configPath: string | undefined;
  token: string | undefined;
}

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "EnvError";
  }
}

/** Validate a variable set; empty strings count as unset. Throws EnvError naming each bad variable. */
export function parseAgentEnv(source: Record<string, string | undefined>): AgentEnv {
  const picked: Record<string, string> = {};
  for (const [k, v] of Object.entries(source))
    if (k.startsWith("RPCPULSE_") && v !== undefined && v !== "") picked[k] = v;
  const result = agentEnvSchema.safeParse(picked);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((i) => {
        const name = String(i.path[0] ?? "environment");
        const got = i.message.includes("got ") ? "" : ` (got ${JSON.stringify(picked[name])})`;
        return `${name}: ${i.message}${got}`;
      }),
    );
  }
  const fields: PartialFields = {};
  for (const key of Object.keys(ENV_NAMES) as FieldName[]) {
    const v = result.data[ENV_NAMES[key]];
    if (v !== undefined) (fields as Record<string, unknown>)[key] = v;
  }
  return { fields, configPath: result.data.RPCPULSE_CONFIG, token: result.data.RPCPULSE_TOKEN };
}

export function loadAgentEnv(): AgentEnv {
  return parseAgentEnv(process.env);
}
