/**
 * The commands an operator runs on the node's host after enrolling it. The one line pipes the app's
 * /install.sh (apps/agent/packaging/install.sh) into sh: it downloads the self-contained agent for
 * the host's architecture from /downloads, checks its SHA-256, writes the node's config and token
 * (/etc/rpcpulse-agent/<name>.{json,token}, 0600) and starts rpcpulse-agent@<name>. The config keys
 * are the agent's own (apps/agent/src/config/fields.ts).
 */
export interface InstallCommandInput {
  /** Public origin of this app (APP_BASE_URL), where /install.sh and /downloads are served. */
  appBaseUrl: string;
  ingestUrl: string;
  token: string;
  nodeId: string;
  nodeName: string;
  apiFamily: string;
  localRpcUrl: string;
}

/** Single-quote for POSIX sh: no expansion at all inside. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The unit instance for a node: its name reduced to what install.sh (and systemd) accept. */
export function toInstanceName(nodeName: string): string {
  const name = nodeName
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 64)
    .replace(/[-.]+$/, "");
  return name || "node";
}

function agentConfig(input: InstallCommandInput): string {
  return JSON.stringify({
    family: input.apiFamily,
    rpcUrl: input.localRpcUrl,
    ingestUrl: input.ingestUrl,
    nodeId: input.nodeId,
  });
}

function installerOptions(input: InstallCommandInput): string {
  return `--token ${shellQuote(input.token)} --name ${shellQuote(toInstanceName(input.nodeName))} --config ${shellQuote(agentConfig(input))}`;
}

function installScriptUrl(input: InstallCommandInput): string {
  return `${input.appBaseUrl.replace(/\/+$/, "")}/install.sh`;
}

/** One line, as written: download, verify, install, configure and start the agent (no Node.js needed). */
export function buildInstallCommand(input: InstallCommandInput): string {
  return `curl -fsSL ${shellQuote(installScriptUrl(input))} | sudo sh -s -- ${installerOptions(input)}`;
}

/** The same, reading the script before running it. */
export function buildReviewedInstallCommand(input: InstallCommandInput): string {
  return [
    `curl -fsSLo rpcpulse-install.sh ${shellQuote(installScriptUrl(input))}`,
    "less rpcpulse-install.sh",
    `sudo sh rpcpulse-install.sh ${installerOptions(input)}`,
  ].join("\n");
}

/** One line to try the agent in the foreground first (no systemd), with the bundle on a host with Node.js 20+. */
export function buildForegroundCommand(input: InstallCommandInput): string {
  return [
    `curl -fsSLO ${shellQuote(`${input.appBaseUrl.replace(/\/+$/, "")}/downloads/rpcpulse-agent.mjs`)} &&`,
    `RPCPULSE_TOKEN=${shellQuote(input.token)}`,
    "node rpcpulse-agent.mjs run",
    `--family ${input.apiFamily}`,
    `--rpc-url ${shellQuote(input.localRpcUrl)}`,
    `--ingest-url ${shellQuote(input.ingestUrl)}`,
    `--node-id ${input.nodeId}`,
    "--state-dir ./rpcpulse-agent-state",
  ].join(" ");
}
