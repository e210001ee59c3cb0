import { RPCPULSE_VERSION } from "@rpcpulse/config";
import { UsageError, type AgentConfig } from "../config/load.js";
import { discoverNode } from "../discover/discover-node.js";
import {
  findProcesses,
  matchesProcessName,
  readPasswd,
  readProcessInfo,
  type ProcessInfo,
} from "../discover/process-info.js";
import {
  checkDataDirs,
  checkKernelFiles,
  checkNodeProcess,
  checkProcessVisibility,
  checkSocketTables,
  type Check,
} from "../doctor/host-checks.js";
import { checkPrometheus } from "../doctor/prometheus-checks.js";
import { checkIngest, checkRpc, checkStateDir, checkToken } from "../doctor/push-checks.js";
import { describeIdentity, readServiceIdentity } from "../doctor/unit-settings.js";
import { CONFIG_HELP, CONFIG_OPTIONS, parseCommandArgs, resolveConfigFromFlags } from "./options.js";

export const DOCTOR_HELP = `rpcpulse-agent doctor [--name <node>] [--offline] [--json] [options]

Explain what the agent can and cannot read on this host, and why (permissions, DynamicUser, a
missing capability, hidepid, another network namespace), with the fix; check the node's RPC, the
token and the ingest API. Run it as root: it reads the installed unit (rpcpulse-agent@<node>.service
and its drop-ins) and says what the service itself would be allowed to read.
  --name <node>   the installed node: --config /etc/rpcpulse-agent/<node>.json,
                  --token-file /etc/rpcpulse-agent/<node>.token, --state-dir /var/lib/rpcpulse-agent/<node>
  --unit <file>   read this unit file instead of the installed one
  --offline       skip the RPC and ingest checks
  --json          print the checks as JSON
Exit status: 0 when nothing failed (warnings are figures the agent cannot collect), 1 otherwise.

${CONFIG_HELP}`;

const ETC = "/etc/rpcpulse-agent";
const MARK: Record<Check["status"], string> = { ok: "ok  ", warn: "WARN", fail: "FAIL", info: "info" };

function findConfiguredProcess(config: AgentConfig): ProcessInfo | null {
  const sel = config.process;
  if (!sel) return null;
  if (sel.pid !== undefined) return readProcessInfo(sel.pid);
  const name = sel.name;
  if (!name) return null;
  return findProcesses((p) => matchesProcessName(p, name))[0] ?? null;
}

export function formatReport(header: string[], checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.id.length));
  const lines = [...header, ""];
  for (const c of checks) {
    lines.push(`  ${MARK[c.status]}  ${c.id.padEnd(width)}  ${c.detail}`);
    if (c.fix) lines.push(`  ${" ".repeat(4)}  ${" ".repeat(width)}  fix: ${c.fix}`);
  }
  const count = (s: Check["status"]) => checks.filter((c) => c.status === s).length;
  lines.push("", `${count("ok")} ok, ${count("warn")} warnings, ${count("fail")} failed`);
  return lines.join("\n");
}

export async function doctorCommand(args: string[], out: NodeJS.WritableStream): Promise<number> {
  const { values } = parseCommandArgs(args, {
    ...CONFIG_OPTIONS,
    name: { type: "string" },
    unit: { type: "string" },
    offline: { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    out.write(`${DOCTOR_HELP}\n`);
    return 0;
  }
  const name = values.name;
  if (name !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name))
    throw new UsageError(`--name: letters, digits, '.', '_' and '-' only, got ${JSON.stringify(name)}`);
  if (name) {
    values.config ??= `${ETC}/${name}.json`;
    values["token-file"] ??= `${ETC}/${name}.token`;
    values["state-dir"] ??= `/var/lib/rpcpulse-agent/${name}`;
  }
  const instance = name ?? /^\/etc\/rpcpulse-agent\/([^/]+)\.json$/.exec(values.config ?? "")?.[1];
  const service = readServiceIdentity({ instance, unitPath: values.unit });
  const uid = process.getuid?.() ?? -1;
  const header = [
    `rpcpulse-agent ${RPCPULSE_VERSION} doctor${instance ? ` for node ${instance}` : ""}`,
    `checks run as uid ${uid}${uid === 0 ? " (root)" : " (not root: some checks show only what this user can read)"}`,
    describeIdentity(service),
  ];
  const checks: Check[] = [];
  let config: AgentConfig;
  try {
    config = resolveConfigFromFlags(values);
    checks.push({
      id: "config",
      status: "ok",
      detail: `${config.configPath ?? "flags and environment"}: family ${config.family ?? "none"}, RPC ${config.rpcUrl?.href ?? "none"}, ingest ${config.ingestUrl?.href ?? "none"}`,
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    checks.push({ id: "config", status: "fail", detail: error.message, fix: "fix the named flag, variable or field" });
    out.write(`${values.json ? JSON.stringify({ header, checks }, null, 2) : formatReport(header, checks)}\n`);
    return 1;
  }

  const passwd = readPasswd();
  const uidOf = (user: string): number | null => [...passwd.entries()].find(([, v]) => v[0] === user)?.[0] ?? null;
  const rpcPort = config.rpcUrl ? Number(config.rpcUrl.port || (config.rpcUrl.protocol === "https:" ? 443 : 80)) : null;
  checks.push(checkSocketTables(rpcPort), checkProcessVisibility(service));

  let node = findConfiguredProcess(config);
  let how = config.process
    ? `configured (${config.process.pid ? `pid ${config.process.pid}` : `processName "${config.process.name}"`})`
    : "";
  let dataDirs = config.dataDirs;
  if (!config.process && config.family && config.rpcUrl) {
    const found = discoverNode({ family: config.family, rpcUrl: config.rpcUrl });
    node = found.process ? readProcessInfo(found.process.pid) : null;
    how = found.process
      ? `discovered by ${found.process.by === "rpc-port" ? `its socket on port ${found.rpcPort}` : "its client name"}`
      : `discovery: ${found.notes.join("; ") || "nothing found"}`;
    if (dataDirs.length === 0) dataDirs = found.dataDirs.map((d) => d.path);
  } else if (!config.process) {
    how = "no family configured";
  }
  // A template unit read without --name: the fix names the instance generically.
  const unitInstance = instance ?? (service.unitPath?.includes("@.service") ? "<node>" : undefined);
  checks.push(...checkNodeProcess({ node, how, service, instance: unitInstance, uidOf }));
  checks.push(...checkDataDirs(dataDirs, service), ...checkKernelFiles());
  const { check: tokenCheck, token } = checkToken(config);
  checks.push(tokenCheck, checkStateDir(config.stateDir));
  if (!values.offline) checks.push(await checkRpc(config), ...(await checkIngest(config, token)));
  checks.push(...(await checkPrometheus(config, service, { offline: values.offline === true })));

  out.write(`${values.json ? JSON.stringify({ header, checks }, null, 2) : formatReport(header, checks)}\n`);
  return checks.some((c) => c.status === "fail") ? 1 : 0;
}
