import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import type { FdsGroup } from "@rpcpulse/domain";
import { readIntsOrNull, readTextOrNull } from "./proc-files.js";

export interface NodeProcessSelector {
  pid?: number | undefined;
  name?: string | undefined;
}

/** "Max open files            1024                 524288               files" from /proc/<pid>/limits. */
export function parseOpenFilesLimit(limits: string): { soft: number | null; hard: number | null } {
  const line = limits.split("\n").find((l) => l.startsWith("Max open files"));
  if (!line) return { soft: null, hard: null };
  const [soft, hard] = line.slice("Max open files".length).trim().split(/\s+/);
  const num = (v: string | undefined): number | null =>
    v === undefined || v === "unlimited" ? null : Number.isFinite(Number(v)) ? Number(v) : null;
  return { soft: num(soft), hard: num(hard) };
}

/** System file handles and, when configured, the node process's open descriptors against its limit. */
export class FdsCollector {
  private cachedPid: number | null = null;
  /** The node process found by the last collect(), also when its descriptors were unreadable. */
  lastPid: number | null = null;

  constructor(
    private readonly procRoot: string,
    private readonly selector: NodeProcessSelector | null,
  ) {}

  collect(): FdsGroup | null {
    const fileNr = readIntsOrNull(join(this.procRoot, "sys/fs/file-nr"));
    if (!fileNr || fileNr.length < 3) return null;
    return { systemAllocated: fileNr[0]!, systemMax: fileNr[2]!, process: this.collectProcess() };
  }

  private collectProcess(): FdsGroup["process"] {
    if (!this.selector || (this.selector.pid === undefined && !this.selector.name)) return null;
    const pid = this.resolvePid();
    this.lastPid = pid;
    if (pid === null) return null;
    const base = join(this.procRoot, String(pid));
    let openFds: number;
    try {
      openFds = readdirSync(join(base, "fd")).length;
    } catch {
      this.cachedPid = null;
      return null; // exited, or not ours to read
    }
    const limits = parseOpenFilesLimit(readTextOrNull(join(base, "limits")) ?? "");
    const name = (readTextOrNull(join(base, "comm")) ?? "").trim().slice(0, 64);
    return { pid, name, openFds, softLimit: limits.soft, hardLimit: limits.hard };
  }

  private matches(pid: number, name: string): boolean {
    const comm = readTextOrNull(join(this.procRoot, String(pid), "comm"));
    if (comm !== null && comm.trim() === name.slice(0, 15)) return true;
    const cmdline = readTextOrNull(join(this.procRoot, String(pid), "cmdline"));
    const argv0 = cmdline?.split("\0")[0];
    return !!argv0 && basename(argv0) === name;
  }

  private resolvePid(): number | null {
    const { pid, name } = this.selector ?? {};
    if (pid !== undefined) return pid;
    if (!name) return null;
    if (this.cachedPid !== null && this.matches(this.cachedPid, name)) return this.cachedPid;
    this.cachedPid = null;
    let found: number | null = null;
    for (const entry of readdirSync(this.procRoot)) {
      const c = entry.charCodeAt(0);
      if (c < 48 || c > 57) continue;
      const candidate = Number(entry);
      if ((found === null || candidate < found) && this.matches(candidate, name)) found = candidate;
    }
    this.cachedPid = found;
    return found;
  }
}
