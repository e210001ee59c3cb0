/**
 * CPU time of processes from /proc/<pid>/stat (user + system, in ms), for benches that report CPU
 * per component. Linux only; a process that has exited reads as undefined.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** utime + stime of one process in ms, or undefined when it is gone. */
export function readProcessCpuMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces; fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU used by groups of processes between two points: `sample(groups)` records each pid's CPU,
 * and the difference to the first sample of that pid is summed per group. Pids that appear later
 * (a new database backend) count from zero.
 */
export function createCpuMeter() {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const groupOf = new Map<number, string>();
  return {
    sample(groups: Record<string, readonly number[]>, startsNow = false) {
      for (const [group, pids] of Object.entries(groups)) {
        for (const pid of pids) {
          const ms = readProcessCpuMs(pid);
          if (ms === undefined) continue;
          groupOf.set(pid, group);
          if (!first.has(pid)) first.set(pid, startsNow ? ms : 0);
          last.set(pid, ms);
        }
      }
    },
    /** CPU ms per group since each pid's first sample. */
    totals(): Record<string, number> {
      const out: Record<string, number> = {};
      for (const [pid, group] of groupOf) out[group] = (out[group] ?? 0) + (last.get(pid)! - first.get(pid)!);
      return out;
    },
  };
}
