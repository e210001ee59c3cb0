import { readdirSync } from "node:fs";
import { join } from "node:path";
import { NODE_ARG_FLAGS, WIRE_LIMITS, type NodeArg, type PortRange, type SettingsGroup } from "@rpcpulse/domain";
import { readIntOrNull, readIntsOrNull, readTextOrNull } from "./proc-files.js";

/** Where sysctl(8) / systemd-sysctl read settings from (sysctl.d(5)), relative to the root. */
export const SYSCTL_FILES = ["etc/sysctl.conf"];
export const SYSCTL_DIRS = [
  "etc/sysctl.d",
  "run/sysctl.d",
  "usr/local/lib/sysctl.d",
  "usr/lib/sysctl.d",
  "lib/sysctl.d",
];

export function readPortRange(procRoot: string): PortRange | null {
  const r = readIntsOrNull(join(procRoot, "sys/net/ipv4/ip_local_port_range"));
  if (!r || r.length < 2 || r[0]! < 1 || r[1]! > 65535 || r[1]! < r[0]!) return null;
  return { low: r[0]!, high: r[1]!, size: r[1]! - r[0]! + 1 };
}

/**
 * Lines of a sysctl file that set net.ipv4.tcp_tw_recycle (dots or slashes, optional leading "-",
 * comments are "#" or ";"). The key was removed in Linux 4.12; setting it is always stale.
 */
export function findTwRecycleLines(text: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) return;
    const eq = line.indexOf("=");
    if (eq < 0) return;
    const key = line.slice(0, eq).trim().replace(/^-/, "").replace(/\//g, ".");
    if (key === "net.ipv4.tcp_tw_recycle") found.push({ line: index + 1, text: line.slice(0, 500) });
  });
  return found;
}

const FLAG_BY_LOWER = new Map<string, string>(NODE_ARG_FLAGS.map((f) => [f.toLowerCase(), f]));

/**
 * The whitelisted flags (NODE_ARG_FLAGS) of a NUL-separated /proc/<pid>/cmdline: "--flag=value",
 * "--flag value", or "--flag" alone ("true"). Repeated flags are joined with ",". Nothing outside
 * the whitelist is returned (command lines can carry secrets).
 */
export function parseNodeArgs(cmdline: string): NodeArg[] {
  const argv = cmdline.split("\0").filter((a) => a !== "");
  const found = new Map<string, string[]>();
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) continue;
    const eq = arg.indexOf("=");
    const flag = FLAG_BY_LOWER.get((eq < 0 ? arg : arg.slice(0, eq)).toLowerCase());
    if (!flag) continue;
    let value = "true";
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1]!.startsWith("--")) value = argv[++i]!;
    found.set(flag, [...(found.get(flag) ?? []), value]);
  }
  return [...found.entries()]
    .slice(0, WIRE_LIMITS.maxNodeArgs)
    .map(([flag, values]) => ({ flag, value: values.join(",").slice(0, 256) }));
}

/** parseNodeArgs of a process; null when it is gone or unreadable. */
export function readNodeArgs(procRoot: string, pid: number): NodeArg[] | null {
  const cmdline = readTextOrNull(join(procRoot, String(pid), "cmdline"));
  return cmdline === null ? null : parseNodeArgs(cmdline);
}

export class SettingsCollector {
  constructor(
    private readonly procRoot: string,
    private readonly rootDir: string,
  ) {}

  collect(): SettingsGroup {
    const sys = (p: string): number | null => readIntOrNull(join(this.procRoot, "sys", p));
    return {
      tcpTwReuse: sys("net/ipv4/tcp_tw_reuse"),
      tcpFinTimeout: sys("net/ipv4/tcp_fin_timeout"),
      somaxconn: sys("net/core/somaxconn"),
      tcpMaxSynBacklog: sys("net/ipv4/tcp_max_syn_backlog"),
      tcpMaxTwBuckets: sys("net/ipv4/tcp_max_tw_buckets"),
      ipLocalPortRange: readPortRange(this.procRoot),
      tcpTwRecycleLines: this.scanSysctlFiles(),
    };
  }

  private scanSysctlFiles(): SettingsGroup["tcpTwRecycleLines"] {
    const files = SYSCTL_FILES.map((f) => join(this.rootDir, f));
    for (const dir of SYSCTL_DIRS) {
      let names: string[];
      try {
        names = readdirSync(join(this.rootDir, dir));
      } catch {
        continue;
      }
      for (const name of names.sort()) if (name.endsWith(".conf")) files.push(join(this.rootDir, dir, name));
    }
    const out: SettingsGroup["tcpTwRecycleLines"] = [];
    for (const file of files) {
      let text: string | null;
      try {
        text = readTextOrNull(file);
      } catch {
        continue; // unreadable (EACCES, EISDIR): not ours to report
      }
      if (text === null) continue;
      for (const hit of findTwRecycleLines(text)) {
        if (out.length < 32) out.push({ file, line: hit.line, text: hit.text });
      }
    }
    return out;
  }
}
