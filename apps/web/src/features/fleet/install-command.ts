/**
 * The commands an operator runs on the node's host after enrolling it. Built from the agent's
 * real flags and config fields (apps/agent/src/commands/options.ts) and its systemd unit
 * (apps/agent/packaging/rpcpulse-agent.service, which reads /etc/rpcpulse-agent/{agent.json,token}).
 */
export interface InstallCommandInput {
  ingestUrl: string;
  token: string;
  nodeId: string;
  apiFamily: string;
  localRpcUrl: string;
}

/** Single-quote for POSIX sh: no expansion at all inside. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** One line: write the agent's config and token (root-only) and start the systemd unit. */
export function buildInstallCommand(input: InstallCommandInput): string {
  const config = JSON.stringify({
    family: input.apiFamily,
    rpcUrl: input.localRpcUrl,
    ingestUrl: input.ingestUrl,
    nodeId: input.nodeId,
  });
  return [
    "sudo install -d -m 0700 /etc/rpcpulse-agent",
    `printf '%s\\n' ${shellQuote(input.token)} | sudo tee /etc/rpcpulse-agent/token >/dev/null`,
    `printf '%s\\n' ${shellQuote(config)} | sudo tee /etc/rpcpulse-agent/agent.json >/dev/null`,
    "sudo chmod 0600 /etc/rpcpulse-agent/token /etc/rpcpulse-agent/agent.json",
    "sudo systemctl enable --now rpcpulse-agent",
  ].join(" && ");
}

/** One line to try the agent in the foreground first (no systemd), from the bundled file. */
export function buildForegroundCommand(input: InstallCommandInput): string {
  return [
    `RPCPULSE_TOKEN=${shellQuote(input.token)}`,
    "node rpcpulse-agent.mjs run",
    `--family ${input.apiFamily}`,
    `--rpc-url ${shellQuote(input.localRpcUrl)}`,
    `--ingest-url ${shellQuote(input.ingestUrl)}`,
    `--node-id ${input.nodeId}`,
    "--state-dir ./rpcpulse-agent-state",
  ].join(" ");
}

/** Steps that install the bundle and unit once per host (before the one-line command). */
export const SYSTEMD_HINT = [
  "sudo install -D -m 0755 rpcpulse-agent.mjs /usr/lib/rpcpulse-agent/rpcpulse-agent.mjs",
  "sudo install -D -m 0644 rpcpulse-agent.service /etc/systemd/system/rpcpulse-agent.service",
  "sudo systemctl daemon-reload",
].join("\n");
