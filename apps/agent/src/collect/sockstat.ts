import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { SockstatGroup } from "@rpcpulse/domain";
import { readTextOrNull } from "./proc-files.js";

/** Parse "PROTO: key value key value ..." lines into { "PROTO.key": value }. */
export function parseKeyValueLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const proto = line.slice(0, colon);
    const parts = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/);
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const n = Number(parts[i + 1]);
      if (Number.isFinite(n)) out.set(`${proto}.${parts[i]}`, n);
    }
  }
  return out;
}

/** /proc/net/sockstat and sockstat6 (net/ipv4/proc.c sockstat_seq_show). Counts are per network namespace. */
export function collectSockstat(procRoot: string, pageSize: number): SockstatGroup | null {
  const text = readTextOrNull(join(procRoot, "net/sockstat"));
  if (text === null) return null;
  const v = parseKeyValueLines(text);
  const need = (key: string): number => {
    const n = v.get(key);
    if (n === undefined) throw new Error(`sockstat: ${key} missing`);
    return n;
  };
  const six = readTextOrNull(join(procRoot, "net/sockstat6"));
  const v6 = six === null ? null : parseKeyValueLines(six);
  const memPages = need("TCP.mem");
  return {
    socketsUsed: v.get("sockets.used") ?? null,
    tcpInuse: need("TCP.inuse"),
    tcpOrphan: need("TCP.orphan"),
    tcpTw: need("TCP.tw"),
    tcpAlloc: need("TCP.alloc"),
    tcpMemPages: memPages,
    tcpMemBytes: memPages * pageSize,
    tcp6Inuse: v6?.get("TCP6.inuse") ?? null,
  };
}

/**
 * The kernel page size (sockstat's mem is in pages): KernelPageSize of our first mapping, else
 * 4096. Only the first 4 KiB of smaps are read (the whole file is hundreds of KiB).
 */
export function readPageSize(procRoot: string): number {
  let fd = -1;
  try {
    fd = openSync(join(procRoot, "self/smaps"), "r");
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const m = /KernelPageSize:\s+(\d+) kB/.exec(buf.toString("latin1", 0, n));
    if (m?.[1]) return Number(m[1]) * 1024;
  } catch {
    // fall through to the common default
  } finally {
    if (fd >= 0) closeSync(fd);
  }
  return 4096;
}
