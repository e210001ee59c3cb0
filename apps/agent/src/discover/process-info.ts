import { readFileSync, readlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { listPids } from "./proc-sockets.js";

export interface ProcessInfo {
  pid: number;
  /** /proc/<pid>/comm (at most 15 characters). */
  comm: string;
  argv: string[];
  uid: number | null;
  user: string | null;
  home: string | null;
  /** readlink /proc/<pid>/cwd; null without access (another user's process). */
  cwd: string | null;
}

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return fallback;
  }
}

/** uid -> [name, home] from /etc/passwd (for a node's default data directory under its home). */
export function readPasswd(rootDir = "/"): Map<number, [string, string]> {
  const users = new Map<number, [string, string]>();
  for (const line of readOr(join(rootDir, "etc/passwd"), "").split("\n")) {
    const f = line.split(":");
    if (f.length >= 7 && /^\d+$/.test(f[2]!)) users.set(Number(f[2]), [f[0]!, f[5]!]);
  }
  return users;
}

function splitCmdline(text: string): string[] {
  const argv = text.split("\0");
  if (argv[argv.length - 1] === "") argv.pop();
  return argv;
}

export function readProcessInfo(
  pid: number,
  procRoot = "/proc",
  passwd: Map<number, [string, string]> = readPasswd(),
): ProcessInfo | null {
  const base = join(procRoot, String(pid));
  const status = readOr(join(base, "status"), "");
  if (status === "") return null;
  const uidLine = /^Uid:\s+(\d+)/m.exec(status);
  const uid = uidLine ? Number(uidLine[1]) : null;
  const user = uid === null ? undefined : passwd.get(uid);
  let cwd: string | null = null;
  try {
    cwd = readlinkSync(join(base, "cwd"));
  } catch {
    cwd = null;
  }
  return {
    pid,
    comm: readOr(join(base, "comm"), "").trim(),
    argv: splitCmdline(readOr(join(base, "cmdline"), "")),
    uid,
    user: user?.[0] ?? null,
    home: user?.[1] ?? null,
    cwd,
  };
}

/** The same rule as the fds collector's --process-name: comm (first 15 chars) or argv[0]'s basename. */
export function matchesProcessName(info: Pick<ProcessInfo, "comm" | "argv">, name: string): boolean {
  if (info.comm === name.slice(0, 15)) return true;
  const argv0 = info.argv[0];
  return !!argv0 && basename(argv0) === name;
}

/** How many running processes a --process-name would match (1 = it identifies the node alone). */
export function countProcessesNamed(name: string, procRoot = "/proc"): number {
  let n = 0;
  for (const pid of listPids(procRoot)) {
    const comm = readOr(join(procRoot, String(pid), "comm"), "").trim();
    const argv0 = readOr(join(procRoot, String(pid), "cmdline"), "").split("\0")[0] ?? "";
    if (comm === name.slice(0, 15) || (argv0 !== "" && basename(argv0) === name)) n++;
  }
  return n;
}

/** Processes whose name or command line matches `test` (the fallback when descriptors are unreadable). */
export function findProcesses(test: (info: ProcessInfo) => boolean, procRoot = "/proc"): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  const passwd = readPasswd();
  for (const pid of listPids(procRoot)) {
    if (pid === process.pid) continue;
    const info = readProcessInfo(pid, procRoot, passwd);
    if (info && test(info)) found.push(info);
  }
  return found;
}
