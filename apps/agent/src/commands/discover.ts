import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";
import { UsageError } from "../config/load.js";
import { discoverNode, type Discovery } from "../discover/discover-node.js";
import { CONFIG_HELP, CONFIG_OPTIONS, parseCommandArgs, resolveConfigFromFlags } from "./options.js";

export const DISCOVER_HELP = `rpcpulse-agent discover [--write] [--json] [options]

Find this node's process (the one listening on the RPC port: /proc/net/tcp inode -> /proc/<pid>/fd),
its data directories (per family: --data-dir/-d, --datadir, --base-path, the client's default, or the
files it keeps open) and its public ports (what it listens on beyond loopback). Run it as root: an
ordinary user cannot read other users' descriptors. The installer runs it on enrollment.
  --write    add what was found to the --config file where the field is absent (processName or pid,
             dataDirs, ports); fields already set are kept
  --json     print the findings as JSON

${CONFIG_HELP}`;

/** Config-file fields a discovery fills, only where the file has none. */
export function fieldsToWrite(file: Record<string, unknown>, found: Discovery): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const absent = (k: string): boolean => file[k] === undefined || file[k] === null;
  if (absent("processName") && absent("pid") && found.selector) {
    if ("name" in found.selector) out.processName = found.selector.name;
    else out.pid = found.selector.pid;
  }
  if (absent("dataDirs") && found.dataDirs.length > 0) out.dataDirs = found.dataDirs.map((d) => d.path);
  if (absent("ports") && found.publicPorts) out.ports = found.publicPorts;
  return out;
}

export function describeDiscovery(found: Discovery): string {
  const lines = [`family ${found.family}, RPC port ${found.rpcPort}`];
  const p = found.process;
  lines.push(
    p
      ? `node process: ${p.comm} (pid ${p.pid}, user ${p.user ?? `uid ${p.uid}`}), found by ${
          p.by === "rpc-port" ? `the socket listening on port ${found.rpcPort}` : "its client name"
        }`
      : "node process: not found",
  );
  if (found.selector)
    lines.push(
      `  the agent follows it by ${"name" in found.selector ? `name "${found.selector.name}"` : `pid ${found.selector.pid}`}`,
    );
  lines.push(
    found.dataDirs.length
      ? `data directories: ${found.dataDirs.map((d) => `${d.path} (${d.source})`).join(", ")}`
      : "data directories: none found",
  );
  lines.push(
    `public ports: ${found.publicPorts ? found.publicPorts.join(", ") : "none found (per-IP counts use all listening ports)"}`,
  );
  for (const note of found.notes) lines.push(`note: ${note}`);
  return lines.join("\n");
}

function writeJsonDurable(path: string, value: unknown): void {
  let mode = 0o600;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    // new file: 0600
  }
  const tmp = `${path}.discover-${process.pid}`;
  const fd = openSync(tmp, "w", mode);
  try {
    writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

export function discoverCommand(args: string[], out: NodeJS.WritableStream): number {
  const { values } = parseCommandArgs(args, {
    ...CONFIG_OPTIONS,
    write: { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    out.write(`${DISCOVER_HELP}\n`);
    return 0;
  }
  const config = resolveConfigFromFlags(values);
  if (!config.family || !config.rpcUrl)
    throw new UsageError('discover: needs a chain family (--family, RPCPULSE_FAMILY or field "family")');
  if (values.write && !config.configPath) throw new UsageError("--write: needs --config <file> to write to");
  const found = discoverNode({ family: config.family, rpcUrl: config.rpcUrl });
  let written: Record<string, unknown> = {};
  if (values.write && config.configPath) {
    const file = JSON.parse(readFileSync(config.configPath, "utf8")) as Record<string, unknown>;
    written = fieldsToWrite(file, found);
    if (Object.keys(written).length > 0) writeJsonDurable(config.configPath, { ...file, ...written });
  }
  if (values.json) {
    out.write(`${JSON.stringify({ ...found, written }, null, 2)}\n`);
    return 0;
  }
  out.write(`${describeDiscovery(found)}\n`);
  if (values.write)
    out.write(
      Object.keys(written).length > 0
        ? `wrote to ${config.configPath}: ${Object.entries(written)
            .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
            .join(", ")}\n`
        : `${config.configPath}: nothing to add\n`,
    );
  return 0;
}
