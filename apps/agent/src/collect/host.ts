import { join } from "node:path";
import type { HostGroup } from "@rpcpulse/domain";
import { readTextOrNull } from "./proc-files.js";

/** "cpu  user nice system idle iowait irq softirq steal guest guest_nice" → busy and total jiffies. */
export function parseCpuLine(stat: string): { busy: number; total: number; cpuCount: number } {
  const lines = stat.split("\n");
  const first = lines[0] ?? "";
  if (!first.startsWith("cpu ")) throw new Error("/proc/stat: no aggregate cpu line");
  const f = first.slice(4).trim().split(/\s+/).map(Number);
  // guest and guest_nice are already included in user and nice.
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  const busy = total - idle - iowait;
  const cpuCount = lines.filter((l) => /^cpu\d/.test(l)).length;
  return { busy, total, cpuCount: Math.max(1, cpuCount) };
}

/** /proc/meminfo "Key:   123 kB" → bytes. */
export function parseMeminfo(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^(\w+(?:\(\w+\))?):\s+(\d+)(?: kB)?/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]) * (line.endsWith("kB") ? 1024 : 1));
  }
  return out;
}

export class HostCollector {
  private previous: { busy: number; total: number } | null = null;

  constructor(private readonly procRoot: string) {}

  collect(): HostGroup | null {
    const stat = readTextOrNull(join(this.procRoot, "stat"));
    const meminfo = readTextOrNull(join(this.procRoot, "meminfo"));
    const loadavg = readTextOrNull(join(this.procRoot, "loadavg"));
    if (stat === null || meminfo === null || loadavg === null) return null;
    const cpu = parseCpuLine(stat);
    let cpuPct: number | null = null;
    if (this.previous) {
      const dt = cpu.total - this.previous.total;
      const db = cpu.busy - this.previous.busy;
      cpuPct = dt > 0 ? Math.min(100, Math.max(0, Math.round((db / dt) * 10000) / 100)) : null;
    }
    this.previous = { busy: cpu.busy, total: cpu.total };
    const mem = parseMeminfo(meminfo);
    const need = (k: string): number => {
      const v = mem.get(k);
      if (v === undefined) throw new Error(`meminfo: ${k} missing`);
      return v;
    };
    const [l1, l5, l15] = loadavg.trim().split(/\s+/).map(Number);
    const uptime = readTextOrNull(join(this.procRoot, "uptime"));
    const swapTotal = need("SwapTotal");
    return {
      cpuPct,
      cpuCount: cpu.cpuCount,
      load1: l1 ?? 0,
      load5: l5 ?? 0,
      load15: l15 ?? 0,
      memTotalBytes: need("MemTotal"),
      memAvailableBytes: need("MemAvailable"),
      shmemBytes: need("Shmem"),
      swapTotalBytes: swapTotal,
      swapUsedBytes: Math.max(0, swapTotal - need("SwapFree")),
      uptimeSeconds: uptime === null ? null : Number(uptime.trim().split(/\s+/)[0]) || null,
    };
  }
}
