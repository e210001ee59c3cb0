import { parseArgs, type ParseArgsConfig } from "node:util";
import { loadAgentEnv, EnvError } from "../env.js";
import { FLAG_NAMES, UsageError, resolveConfig, validateField, type AgentConfig } from "../config/load.js";
import type { FieldName, PartialFields } from "../config/fields.js";
import { completeConfigFromDiscovery } from "../discover/complete-config.js";

/** Flags every collecting command accepts (strings; validated with the shared field rules). */
export const CONFIG_OPTIONS = {
  config: { type: "string" },
  family: { type: "string" },
  "rpc-url": { type: "string" },
  interval: { type: "string" },
  ports: { type: "string" },
  "data-dir": { type: "string", multiple: true },
  "top-n": { type: "string" },
  "dry-run": { type: "boolean" },
  "node-id": { type: "string" },
  pid: { type: "string" },
  "process-name": { type: "string" },
  "state-dir": { type: "string" },
  "ingest-url": { type: "string" },
  "token-file": { type: "string" },
  "rpc-timeout": { type: "string" },
  "spool-max-mb": { type: "string" },
  "spool-max-age": { type: "string" },
  "log-level": { type: "string" },
  vantage: { type: "boolean" },
  "vantage-region": { type: "string" },
  "vantage-networks": { type: "string" },
  "directory-url": { type: "string" },
  "vantage-interval": { type: "string" },
  "vantage-concurrency": { type: "string" },
  "vantage-rate": { type: "string" },
  "vantage-allow-private": { type: "boolean" },
  "metrics-listen": { type: "string" },
  textfile: { type: "string" },
  "node-metrics-url": { type: "string" },
  "beacon-url": { type: "string" },
} as const satisfies ParseArgsConfig["options"];

export const CONFIG_HELP = `Configuration (flags > RPCPULSE_* environment > --config file > defaults):
  --config <file>        JSON file; keys: family, rpcUrl, interval, ports, dataDirs, topN, dryRun, nodeId,
                         pid, processName, stateDir, ingestUrl, tokenFile, rpcTimeout, spoolMaxMb,
                         spoolMaxAge, logLevel, vantage, vantageRegion, vantageNetworks, directoryUrl,
                         vantageInterval, vantageConcurrency, vantageRate, vantageAllowPrivate,
                         metricsListen, textfile, nodeMetricsUrl, beaconUrl
  --family <f>           hive | ethereum | substrate | sidecar                     RPCPULSE_FAMILY
  --rpc-url <url>        node endpoint (default per family, e.g. http://127.0.0.1:8091)  RPCPULSE_RPC_URL
  --interval <d>         collection interval, 10 | 10s | 500ms | 1m (default 10s)   RPCPULSE_INTERVAL
  --ports <p,p>          public ports for per-IP counts (default: listening ports) RPCPULSE_PORTS
  --data-dir <path>      data directory to watch (repeatable; /dev/shm always)     RPCPULSE_DATA_DIRS (comma-separated)
  --top-n <n>            remote IPs / destinations reported, 1-100 (default 20)     RPCPULSE_TOP_N
  --dry-run              build batches but print them instead of sending            RPCPULSE_DRY_RUN
  --node-id <id>         node id assigned by the server                             RPCPULSE_NODE_ID
  --pid <n> | --process-name <name>   node process whose open files are reported  RPCPULSE_PID / RPCPULSE_PROCESS_NAME
  --state-dir <path>     batch sequence and spool (default /var/lib/rpcpulse-agent)   RPCPULSE_STATE_DIR
  --ingest-url <url>     ingest API endpoint                                         RPCPULSE_INGEST_URL
  --token-file <path>    file holding the agent token (or RPCPULSE_TOKEN)            RPCPULSE_TOKEN_FILE
  --rpc-timeout <d>      per-call timeout for node requests (default 5s)           RPCPULSE_RPC_TIMEOUT
  --spool-max-mb <n>     spool size bound, oldest batches dropped first (default 64)  RPCPULSE_SPOOL_MAX_MB
  --spool-max-age <d>    spool age bound (default 24h)                              RPCPULSE_SPOOL_MAX_AGE
  --log-level <l>        fatal|error|warn|info|debug|trace|silent (default info)    RPCPULSE_LOG_LEVEL

Vantage probing (opt-in, off by default): probe the public endpoint list of your chain(s) from this
node's location; the results travel with the batches and rank endpoints per region.
  --vantage              turn it on                                                 RPCPULSE_VANTAGE
  --vantage-region <r>   region label of this node, e.g. eu-west (required)         RPCPULSE_VANTAGE_REGION
  --vantage-networks <n,n> networks whose list is probed, e.g. hive (required)      RPCPULSE_VANTAGE_NETWORKS
  --directory-url <url>  RPC Pulse app serving /api/v1 (required)                   RPCPULSE_DIRECTORY_URL
  --vantage-interval <d> one round over the list this often (default 60s, min 10s)  RPCPULSE_VANTAGE_INTERVAL
  --vantage-concurrency <n> probes in flight, 1-16 (default 4)                      RPCPULSE_VANTAGE_CONCURRENCY
  --vantage-rate <n>     probe starts per second, 1-50 (default 5)                  RPCPULSE_VANTAGE_RATE
  --vantage-allow-private  also probe loopback/private addresses (self-hosted lists) RPCPULSE_VANTAGE_ALLOW_PRIVATE

Prometheus (off by default; --metrics-listen and --textfile are used by run only):
  --metrics-listen <addr> serve /metrics (Prometheus text, OpenMetrics on Accept), e.g.
                         9465 or 127.0.0.1:9465 (a bare port binds 127.0.0.1)     RPCPULSE_METRICS_LISTEN
  --textfile <file.prom> node_exporter textfile-collector file, rewritten atomically
                         after each sample                                          RPCPULSE_TEXTFILE
  --node-metrics-url <url> the node's own Prometheus endpoint (Geth --metrics, Substrate
                         :9615/metrics, Nethermind) for peers, sync and finality    RPCPULSE_NODE_METRICS_URL
  --beacon-url <url>     Ethereum only: the consensus client's Beacon API (Lighthouse :5052,
                         Prysm :3500, Teku/Nimbus/Lodestar :5052/:9596): head slot vs
                         wall clock, sync, optimistic, el_offline, peers, version   RPCPULSE_BEACON_URL`;

const FLAG_TO_FIELD: Record<string, FieldName> = Object.fromEntries(
  (Object.entries(FLAG_NAMES) as [FieldName, string][]).map(([field, flag]) => [flag.slice(2), field]),
);

export function parseCommandArgs<O extends ParseArgsConfig["options"]>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Validate the config flags present in parsed values and merge them with env and file; then discovery. */
export function configFromFlags(values: Record<string, unknown>): AgentConfig {
  return completeConfigFromDiscovery(resolveConfigFromFlags(values));
}

/** The configuration exactly as given (flags > env > file > defaults), without discovery. */
export function resolveConfigFromFlags(values: Record<string, unknown>): AgentConfig {
  const flags: PartialFields = {};
  for (const [name, raw] of Object.entries(values)) {
    const field = FLAG_TO_FIELD[name];
    if (!field || raw === undefined) continue;
    (flags as Record<string, unknown>)[field] = validateField(field, raw, `--${name}`);
  }
  let env;
  try {
    env = loadAgentEnv();
  } catch (error) {
    if (error instanceof EnvError) throw new UsageError(error.message);
    throw error;
  }
  const configPath = typeof values.config === "string" ? values.config : undefined;
  return resolveConfig({ flags, env, configPath });
}
