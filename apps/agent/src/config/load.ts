import { readFileSync } from "node:fs";
import type { ApiFamily } from "@rpcpulse/domain";
import { DEFAULT_RPC_URLS } from "../chain/index.js";
import type { AgentEnv } from "../env.js";
import { ENV_NAMES } from "../env.js";
import { fieldSchemas, type FieldName, type PartialFields } from "./fields.js";

/** Bad flag, variable or config field: the CLI prints the message and exits with status 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export const FLAG_NAMES: Record<FieldName, string> = {
  family: "--family",
  rpcUrl: "--rpc-url",
  interval: "--interval",
  ports: "--ports",
  dataDirs: "--data-dir",
  topN: "--top-n",
  dryRun: "--dry-run",
  nodeId: "--node-id",
  pid: "--pid",
  processName: "--process-name",
  stateDir: "--state-dir",
  ingestUrl: "--ingest-url",
  tokenFile: "--token-file",
  rpcTimeout: "--rpc-timeout",
  spoolMaxMb: "--spool-max-mb",
  spoolMaxAge: "--spool-max-age",
  logLevel: "--log-level",
  vantage: "--vantage",
  vantageRegion: "--vantage-region",
  vantageNetworks: "--vantage-networks",
  directoryUrl: "--directory-url",
  vantageInterval: "--vantage-interval",
  vantageConcurrency: "--vantage-concurrency",
  vantageRate: "--vantage-rate",
  vantageAllowPrivate: "--vantage-allow-private",
  metricsListen: "--metrics-listen",
  textfile: "--textfile",
  nodeMetricsUrl: "--node-metrics-url",
  beaconUrl: "--beacon-url",
};

/** Opt-in vantage probing of the public endpoint list (off unless --vantage). */
export interface VantageConfig {
  region: string;
  networks: string[];
  /** Base URL of the RPC Pulse web app (the list comes from /api/v1/chains/<network>/endpoints). */
  directoryUrl: URL;
  intervalMs: number;
  concurrency: number;
  /** Probe starts per second, at most. */
  ratePerSecond: number;
  allowPrivate: boolean;
}

/** Prometheus interop (all off unless configured). */
export interface PrometheusConfig {
  /** Serve /metrics here; null = off. */
  listen: { host: string; port: number } | null;
  /** node_exporter textfile-collector file rewritten after each sample; null = off. */
  textfile: string | null;
  /** The node's own Prometheus endpoint, read each sample; null = off. */
  nodeMetricsUrl: URL | null;
}

export interface AgentConfig {
  family: ApiFamily | null;
  rpcUrl: URL | null;
  intervalMs: number;
  /** Public ports for per-IP counts; null = the listening ports. */
  ports: number[] | null;
  dataDirs: string[];
  topN: number;
  dryRun: boolean;
  nodeId: string | undefined;
  process: { pid?: number | undefined; name?: string | undefined } | null;
  stateDir: string;
  ingestUrl: URL | null;
  tokenFile: string | undefined;
  token: string | undefined;
  rpcTimeoutMs: number;
  spoolMaxBytes: number;
  spoolMaxAgeMs: number;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  configPath: string | undefined;
  vantage: VantageConfig | null;
  prometheus: PrometheusConfig;
  /** Ethereum: the consensus client's Beacon API beside the execution node; null = not read. */
  beaconUrl: URL | null;
}

export const DEFAULTS = {
  intervalMs: 10_000,
  topN: 20,
  stateDir: "/var/lib/rpcpulse-agent",
  rpcTimeoutMs: 5_000,
  spoolMaxMb: 64,
  spoolMaxAgeMs: 86_400_000,
  logLevel: "info",
  vantageIntervalMs: 60_000,
  vantageConcurrency: 4,
  vantageRate: 5,
} as const;

/** Validate one raw value; `source` names it in the error (a flag, a variable, or a file field). */
export function validateField<K extends FieldName>(
  key: K,
  raw: unknown,
  source: string,
): NonNullable<PartialFields[K]> {
  const result = fieldSchemas[key].safeParse(raw);
  if (!result.success) {
    throw new UsageError(`${source}: ${result.error.issues.map((i) => i.message).join("; ")}`);
  }
  return result.data as NonNullable<PartialFields[K]>;
}

/** Read the JSON config file; its keys are the field names (camelCase), unknown keys are errors. */
export function loadConfigFile(path: string): PartialFields {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(
      `config file ${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `config file ${path}: invalid JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new UsageError(`config file ${path}: must be a JSON object`);
  const out: PartialFields = {};
  for (const [key, raw] of Object.entries(json)) {
    if (!(key in fieldSchemas)) {
      throw new UsageError(
        `config file ${path}: unknown field "${key}" (known: ${Object.keys(fieldSchemas).join(", ")})`,
      );
    }
    if (raw === null) continue;
    (out as Record<string, unknown>)[key] = validateField(key as FieldName, raw, `config file ${path}: field "${key}"`);
  }
  return out;
}

/** Merge the sources, flags > environment > file > defaults, and check the combinations. */
export function resolveConfig(input: {
  flags: PartialFields;
  env: AgentEnv;
  configPath?: string | undefined;
}): AgentConfig {
  const configPath = input.configPath ?? input.env.configPath;
  const file = configPath ? loadConfigFile(configPath) : {};
  const pick = <K extends FieldName>(key: K): { value: PartialFields[K]; source: string } => {
    if (input.flags[key] !== undefined) return { value: input.flags[key], source: FLAG_NAMES[key] };
    if (input.env.fields[key] !== undefined) return { value: input.env.fields[key], source: ENV_NAMES[key] };
    return { value: file[key], source: `config file ${configPath ?? ""}: field "${key}"` };
  };
  const family = pick("family");
  const rpcUrl = pick("rpcUrl");
  if (rpcUrl.value !== undefined && family.value === undefined) {
    throw new UsageError(
      `${rpcUrl.source}: needs a chain family too (--family, ${ENV_NAMES.family} or field "family")`,
    );
  }
  const pid = pick("pid").value;
  const processName = pick("processName").value;
  const ingest = pick("ingestUrl").value;
  const nodeMetricsUrl = pick("nodeMetricsUrl").value;
  const beaconUrl = pick("beaconUrl");
  if (beaconUrl.value !== undefined && family.value !== "ethereum") {
    throw new UsageError(`${beaconUrl.source}: a Beacon API sits beside an Ethereum node only (family ethereum)`);
  }
  return {
    vantage: resolveVantage(pick),
    family: family.value ?? null,
    rpcUrl: family.value ? new URL(rpcUrl.value ?? DEFAULT_RPC_URLS[family.value]) : null,
    intervalMs: pick("interval").value ?? DEFAULTS.intervalMs,
    ports: pick("ports").value ?? null,
    dataDirs: pick("dataDirs").value ?? [],
    topN: pick("topN").value ?? DEFAULTS.topN,
    dryRun: pick("dryRun").value ?? false,
    nodeId: pick("nodeId").value,
    process: pid !== undefined || processName !== undefined ? { pid, name: processName } : null,
    stateDir: pick("stateDir").value ?? DEFAULTS.stateDir,
    ingestUrl: ingest ? new URL(ingest) : null,
    tokenFile: pick("tokenFile").value,
    token: input.env.token,
    rpcTimeoutMs: pick("rpcTimeout").value ?? DEFAULTS.rpcTimeoutMs,
    spoolMaxBytes: (pick("spoolMaxMb").value ?? DEFAULTS.spoolMaxMb) * 1024 * 1024,
    spoolMaxAgeMs: pick("spoolMaxAge").value ?? DEFAULTS.spoolMaxAgeMs,
    logLevel: pick("logLevel").value ?? DEFAULTS.logLevel,
    configPath,
    prometheus: {
      listen: pick("metricsListen").value ?? null,
      textfile: pick("textfile").value ?? null,
      nodeMetricsUrl: nodeMetricsUrl ? new URL(nodeMetricsUrl) : null,
    },
    beaconUrl: beaconUrl.value ? new URL(beaconUrl.value) : null,
  };
}

type Pick = <K extends FieldName>(key: K) => { value: PartialFields[K]; source: string };

function resolveVantage(pick: Pick): VantageConfig | null {
  const on = pick("vantage");
  if (!on.value) return null;
  const region = pick("vantageRegion").value;
  const networks = pick("vantageNetworks").value;
  const directoryUrl = pick("directoryUrl").value;
  const missing = [
    region === undefined ? `a region (${FLAG_NAMES.vantageRegion}, ${ENV_NAMES.vantageRegion})` : null,
    networks === undefined
      ? `the networks to probe (${FLAG_NAMES.vantageNetworks}, ${ENV_NAMES.vantageNetworks})`
      : null,
    directoryUrl === undefined ? `the RPC Pulse app URL (${FLAG_NAMES.directoryUrl}, ${ENV_NAMES.directoryUrl})` : null,
  ].filter((m): m is string => m !== null);
  if (missing.length > 0 || region === undefined || networks === undefined || directoryUrl === undefined)
    throw new UsageError(`${on.source}: vantage probing needs ${missing.join(", ")}`);
  return {
    region,
    networks,
    directoryUrl: new URL(directoryUrl),
    intervalMs: pick("vantageInterval").value ?? DEFAULTS.vantageIntervalMs,
    concurrency: pick("vantageConcurrency").value ?? DEFAULTS.vantageConcurrency,
    ratePerSecond: pick("vantageRate").value ?? DEFAULTS.vantageRate,
    allowPrivate: pick("vantageAllowPrivate").value ?? false,
  };
}
