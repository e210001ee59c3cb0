import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CLIENT_OPTIONS,
  SIDECAR_BLOCK_PARAMS,
  SYSCTL_RANGES,
  checkSysctlValue,
  parseSysctlFile,
  type Snippet,
} from "../src/index.js";

/**
 * Checks of generated snippets by the real tools (Debian packages). A missing tool is an error
 * naming its package, never a skip: CI installs them (.ci/run).
 */
export const TOOLS = {
  nginx: { bin: "nginx", pkg: "nginx" },
  iptablesRestore: { bin: "iptables-restore", pkg: "iptables" },
  nft: { bin: "nft", pkg: "nftables" },
  systemdAnalyze: { bin: "systemd-analyze", pkg: "systemd" },
  sysctl: { bin: "sysctl", pkg: "procps" },
  unshare: { bin: "unshare", pkg: "util-linux" },
  bash: { bin: "bash", pkg: "bash" },
} as const;

const PATH_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

export function requireTool(t: (typeof TOOLS)[keyof typeof TOOLS]): string {
  for (const d of PATH_DIRS) if (existsSync(join(d, t.bin))) return join(d, t.bin);
  throw new Error(`${t.bin} not found: install the Debian package "${t.pkg}" (apt-get install -y ${t.pkg})`);
}

export interface CheckResult {
  ok: boolean;
  output: string;
}

function run(bin: string, args: string[], input?: string): { status: number | null; out: string } {
  const r = spawnSync(bin, args, { encoding: "utf8", input, timeout: 30_000 });
  return { status: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

let tmpRoot: string | null = null;
function tmp(prefix: string): string {
  tmpRoot ??= mkdtempSync(join(tmpdir(), "rpcpulse-advisor-"));
  return mkdtempSync(join(tmpRoot, `${prefix}-`));
}

/** nginx -t with the snippet inside http {} of a minimal configuration in a temp prefix. */
export function checkNginx(content: string): CheckResult {
  const bin = requireTool(TOOLS.nginx);
  const dir = tmp("nginx");
  mkdirSync(join(dir, "logs"));
  const conf = join(dir, "nginx.conf");
  writeFileSync(
    conf,
    `pid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log;\nevents {}\nhttp {\n    access_log off;\n    client_body_temp_path ${dir}/body;\n    proxy_temp_path ${dir}/proxy;\n    fastcgi_temp_path ${dir}/fastcgi;\n    uwsgi_temp_path ${dir}/uwsgi;\n    scgi_temp_path ${dir}/scgi;\n${content}\n}\n`,
  );
  const r = run(bin, ["-t", "-q", "-p", dir, "-c", conf]);
  return { ok: r.status === 0, output: r.out };
}

export function checkIptables(content: string): CheckResult {
  const bin = requireTool(TOOLS.iptablesRestore);
  const file = join(tmp("ipt"), "rules.v4");
  writeFileSync(file, content);
  const r = run(bin, ["--test", file]);
  return { ok: r.status === 0, output: r.out };
}

export function checkNft(content: string): CheckResult {
  const bin = requireTool(TOOLS.nft);
  const file = join(tmp("nft"), "rules.nft");
  writeFileSync(file, content);
  const r = run(bin, ["-c", "-f", file]);
  return { ok: r.status === 0, output: r.out };
}

/** systemd-analyze verify of a minimal unit plus the drop-in, offline (no running systemd needed). */
export function checkSystemdDropIn(snippet: Snippet): CheckResult {
  const bin = requireTool(TOOLS.systemdAnalyze);
  const m = /\/etc\/systemd\/system\/([^/]+\.service)\.d\/([^/]+\.conf)$/.exec(snippet.filename ?? "");
  if (!m) return { ok: false, output: `unexpected drop-in path ${snippet.filename}` };
  const dir = tmp("systemd");
  const unit = join(dir, m[1]!);
  writeFileSync(unit, "[Unit]\nDescription=advisor check\n[Service]\nExecStart=/bin/true\n");
  mkdirSync(join(dir, `${m[1]}.d`));
  writeFileSync(join(dir, `${m[1]}.d`, m[2]!), snippet.content);
  const r = run(bin, ["verify", "--man=no", "--generators=false", unit]);
  // verify only warns (exit 0) about bad values in drop-ins: any output about our files fails.
  const complaints = r.out.split("\n").filter((l) => l.includes(dir));
  return { ok: r.status === 0 && complaints.length === 0, output: r.out };
}

export function checkShell(content: string): CheckResult {
  const r = run(requireTool(TOOLS.bash), ["-n"], content);
  return { ok: r.status === 0, output: r.out };
}

/** Table check, /proc/sys existence, and (per-netns keys) a real write in a throwaway network namespace. */
export function checkSysctl(content: string): CheckResult {
  const lines = parseSysctlFile(content);
  const problems: string[] = [];
  if (lines.length === 0) problems.push("no key = value lines");
  for (const l of lines) {
    const p = checkSysctlValue(l.key, l.value);
    if (p) problems.push(p);
    if (!existsSync(join("/proc/sys", l.key.replace(/\./g, "/"))))
      problems.push(`${l.key}: no /proc/sys entry on this kernel`);
  }
  const netns = lines.filter((l) => SYSCTL_RANGES[l.key]?.perNetns);
  if (netns.length > 0) {
    requireTool(TOOLS.sysctl);
    const file = join(tmp("sysctl"), "check.conf");
    writeFileSync(file, netns.map((l) => `${l.key} = ${l.value}`).join("\n") + "\n");
    const r = run(requireTool(TOOLS.unshare), ["-n", "sysctl", "-p", file]);
    if (r.status !== 0 || /invalid|error|cannot/i.test(r.out)) problems.push(`kernel rejected: ${r.out.trim()}`);
  }
  return { ok: problems.length === 0, output: problems.join("; ") };
}

function tokens(text: string): string[] {
  const out: string[] = [];
  const re = /"[^"]*"|\S+/g;
  for (const m of text.matchAll(re)) out.push(m[0]);
  return out;
}

/** Flags snippets: every flag known for that client, every value of the right shape. */
export function checkFlags(snippet: Snippet): CheckResult {
  const table = CLIENT_OPTIONS[snippet.kind as "nethermind-flags" | "geth-flags" | "substrate-flags"] as Record<
    string,
    { pattern: RegExp }
  >;
  const body = snippet.content
    .split("\n")
    .filter((l) => !l.trim().startsWith("#"))
    .join(" ")
    .replace(/\\/g, " ");
  const t = tokens(body);
  const problems: string[] = [];
  if (t.length === 0) problems.push("no flags");
  for (let i = 0; i < t.length; i += 2) {
    const flag = t[i]!;
    const value = t[i + 1];
    const spec = table[flag];
    if (!spec) problems.push(`unknown flag ${flag}`);
    else if (value === undefined || !spec.pattern.test(value)) problems.push(`${flag}: bad value ${value}`);
  }
  return { ok: problems.length === 0, output: problems.join("; ") };
}

export function checkHivedConfig(content: string): CheckResult {
  const table = CLIENT_OPTIONS["hived-config"] as Record<string, { pattern: RegExp }>;
  const problems: string[] = [];
  const lines = content.split("\n").filter((l) => l.trim() && !l.trim().startsWith("#"));
  if (lines.length === 0) problems.push("no options");
  for (const l of lines) {
    const m = /^([a-z0-9-]+) = (.+)$/.exec(l);
    if (!m) problems.push(`not "key = value": ${l}`);
    else if (!table[m[1]!]) problems.push(`unknown hived option ${m[1]}`);
    else if (!table[m[1]!]!.pattern.test(m[2]!)) problems.push(`${m[1]}: bad value ${m[2]}`);
  }
  return { ok: problems.length === 0, output: problems.join("; ") };
}

/** Sidecar request lines: known block endpoints and boolean parameters from the OpenAPI spec. */
export function sidecarRequests(content: string): { paths: string[]; problems: string[] } {
  const paths: string[] = [];
  const problems: string[] = [];
  for (const l of content.split("\n")) {
    if (!l.trim() || l.startsWith("#")) continue;
    const m = /^GET (\/\S+)$/.exec(l);
    if (!m) {
      problems.push(`not "GET /path": ${l}`);
      continue;
    }
    const url = new URL(m[1]!, "http://sidecar.invalid");
    if (!/^\/blocks\/(head|\d+)(\/header)?$/.test(url.pathname)) problems.push(`unknown endpoint ${url.pathname}`);
    for (const [k, v] of url.searchParams) {
      if (!(SIDECAR_BLOCK_PARAMS as readonly string[]).includes(k)) problems.push(`unknown parameter ${k}`);
      if (v !== "true" && v !== "false") problems.push(`${k}=${v} is not a boolean`);
    }
    paths.push(m[1]!);
  }
  return { paths, problems };
}
