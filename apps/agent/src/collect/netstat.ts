import { join } from "node:path";
import type { NetstatGroup } from "@rpcpulse/domain";
import { readTextOrNull } from "./proc-files.js";

const COUNTERS = {
  listenOverflows: "ListenOverflows",
  listenDrops: "ListenDrops",
  tcpTimeWaitOverflow: "TCPTimeWaitOverflow",
} as const;
type CounterKey = keyof typeof COUNTERS;

/** /proc/net/netstat comes in header/value line pairs: "TcpExt: A B C" then "TcpExt: 1 2 3". */
export function parseTcpExt(text: string): Map<string, number> {
  const lines = text.split("\n");
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.startsWith("TcpExt:") || !lines[i + 1]!.startsWith("TcpExt:")) continue;
    const names = lines[i]!.slice(7).trim().split(/\s+/);
    const values = lines[i + 1]!.slice(7).trim().split(/\s+/);
    names.forEach((name, k) => {
      const n = Number(values[k]);
      if (Number.isFinite(n)) out.set(name, n);
    });
    break;
  }
  return out;
}

/** Turns the TcpExt counters into deltas between consecutive samples, handling counter resets. */
export class NetstatCollector {
  private previous: { at: number; values: Record<CounterKey, number> } | null = null;

  constructor(private readonly procRoot: string) {}

  collect(nowMs: number): NetstatGroup | null {
    const text = readTextOrNull(join(this.procRoot, "net/netstat"));
    if (text === null) return null;
    return this.fromText(text, nowMs);
  }

  fromText(text: string, nowMs: number): NetstatGroup {
    const ext = parseTcpExt(text);
    const values = {} as Record<CounterKey, number>;
    for (const key of Object.keys(COUNTERS) as CounterKey[]) {
      const n = ext.get(COUNTERS[key]);
      if (n === undefined) throw new Error(`netstat: TcpExt ${COUNTERS[key]} missing`);
      values[key] = n;
    }
    const prev = this.previous;
    let reset = false;
    const counter = (key: CounterKey): { total: number; delta: number | null } => {
      const total = values[key];
      if (!prev) return { total, delta: null };
      const before = prev.values[key];
      if (total < before) {
        reset = true;
        return { total, delta: total };
      }
      return { total, delta: total - before };
    };
    const group: NetstatGroup = {
      listenOverflows: counter("listenOverflows"),
      listenDrops: counter("listenDrops"),
      tcpTimeWaitOverflow: counter("tcpTimeWaitOverflow"),
      intervalMs: prev ? Math.max(0, nowMs - prev.at) : null,
      counterReset: false,
    };
    group.counterReset = reset;
    this.previous = { at: nowMs, values };
    return group;
  }
}
