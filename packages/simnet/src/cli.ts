import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { createLogger, isAppError } from "@rpcpulse/config";
import { ERROR_KINDS, parseSimnetConfig, type SimnetConfig } from "./config.js";
import { startSimnet } from "./index.js";

/**
 * rpcpulse-simnet: `--config simnet.json`, or one node from flags. Prints one line per node
 * (name, family, network, url, wsUrl) and runs until SIGINT/SIGTERM.
 */

const USAGE = `usage: rpcpulse-simnet --config <file.json>
       rpcpulse-simnet --family <hive|ethereum|substrate|sidecar> --network <slug> [options]
options for a single node:
  --name <name> --port <n> --seed <s> --lag <blocks> --stall-after <blocks> --latency-ms <ms>
  --error-rate <0..1> --error-kind <${ERROR_KINDS.join("|")}> --missing-methods <a,b>
  --rate-limit <rps[:burst]> --ws | --no-ws --client-version <s> --archive --get-logs-max-range <n>
  --peers <n> --syncing`;

/** Config field -> flag, so errors in a flag-built config name the flag. */
const FLAG_OF: Record<string, string> = {
  name: "--name",
  family: "--family",
  network: "--network",
  port: "--port",
  lagBlocks: "--lag",
  "stall.afterBlocks": "--stall-after",
  "latency.ms": "--latency-ms",
  errorRate: "--error-rate",
  errorKind: "--error-kind",
  missingMethods: "--missing-methods",
  rateLimit: "--rate-limit",
  "rateLimit.requestsPerSecond": "--rate-limit",
  "rateLimit.burst": "--rate-limit",
  websocket: "--ws",
  clientVersion: "--client-version",
  getLogsMaxRange: "--get-logs-max-range",
  peers: "--peers",
};

const OPTIONS = {
  config: { type: "string" },
  family: { type: "string" },
  network: { type: "string" },
  name: { type: "string" },
  port: { type: "string" },
  seed: { type: "string" },
  lag: { type: "string" },
  "stall-after": { type: "string" },
  "latency-ms": { type: "string" },
  "error-rate": { type: "string" },
  "error-kind": { type: "string" },
  "missing-methods": { type: "string" },
  "rate-limit": { type: "string" },
  ws: { type: "boolean" },
  "no-ws": { type: "boolean" },
  "client-version": { type: "string" },
  archive: { type: "boolean" },
  "get-logs-max-range": { type: "string" },
  peers: { type: "string" },
  syncing: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];

/** Numbers stay strings when they are not numbers, so the schema reports the flag. */
function num(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  return value.trim() !== "" && Number.isFinite(n) ? n : value;
}

export function buildConfigFromFlags(flags: Flags): unknown {
  const [rps, burst] = flags["rate-limit"]?.split(":") ?? [];
  const node: Record<string, unknown> = {
    name: flags.name ?? `${flags.family ?? "node"}-${flags.network ?? "net"}`,
    family: flags.family,
    network: flags.network,
    port: num(flags.port),
    lagBlocks: num(flags.lag),
    stall: flags["stall-after"] === undefined ? undefined : { afterBlocks: num(flags["stall-after"]) },
    latency: flags["latency-ms"] === undefined ? undefined : { kind: "fixed", ms: num(flags["latency-ms"]) },
    errorRate: num(flags["error-rate"]),
    errorKind: flags["error-kind"],
    missingMethods: flags["missing-methods"]
      ?.split(",")
      .map((m) => m.trim())
      .filter(Boolean),
    rateLimit: rps === undefined ? undefined : { requestsPerSecond: num(rps), burst: num(burst ?? rps) },
    websocket: flags.ws ? true : flags["no-ws"] ? false : undefined,
    clientVersion: flags["client-version"],
    archive: flags.archive,
    getLogsMaxRange: num(flags["get-logs-max-range"]),
    peers: num(flags.peers),
    syncing: flags.syncing,
  };
  for (const key of Object.keys(node)) if (node[key] === undefined) delete node[key];
  return { ...(flags.seed ? { seed: flags.seed } : {}), nodes: [node] };
}

export async function loadCliConfig(argv: string[]): Promise<SimnetConfig | "help"> {
  const { values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false });
  if (values.help) return "help";
  if (values.config) {
    let raw: string;
    try {
      raw = await readFile(values.config, "utf8");
    } catch (error) {
      throw new Error(`cannot read --config ${values.config}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new Error(`--config ${values.config} is not valid JSON: ${(error as Error).message}`);
    }
    return parseSimnetConfig(json, `config file ${values.config}`);
  }
  if (!values.family || !values.network) throw new Error(`give --config, or --family and --network\n${USAGE}`);
  return parseSimnetConfig(
    buildConfigFromFlags(values),
    "flags",
    (path) => FLAG_OF[path.replace(/^nodes\[0\]\./, "")] ?? path,
  );
}

async function main(): Promise<void> {
  const logger = createLogger({ name: "simnet", destination: process.stderr, format: "pretty" });
  let config: SimnetConfig | "help";
  try {
    config = await loadCliConfig(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `rpcpulse-simnet: ${isAppError(error) || error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(2);
  }
  if (config === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const simnet = await startSimnet(config);
  for (const n of simnet.nodes)
    process.stdout.write(`${n.name}\t${n.family}\t${n.network}\t${n.url}\t${n.wsUrl ?? "-"}\n`);
  logger.info({ nodes: simnet.nodes.length }, "simnet running; Ctrl-C to stop");
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping simnet");
    simnet.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "close failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`rpcpulse-simnet: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
