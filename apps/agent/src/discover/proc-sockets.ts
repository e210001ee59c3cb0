import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/** One listening TCP socket from /proc/net/tcp{,6}. */
export interface ListeningSocket {
  inode: number;
  port: number;
  /** Bound to 127.0.0.0/8, ::1 or ::ffff:127.x: reachable from this host only. */
  loopback: boolean;
}

const LISTEN = "0A";

/** Is a hex local address from /proc/net/tcp{,6} (32-bit words in host byte order) a loopback one? */
export function isLoopbackHex(hex: string): boolean {
  if (hex.length === 8) return hex.slice(6, 8).toUpperCase() === "7F";
  if (hex.length !== 32) return false;
  const upper = hex.toUpperCase();
  if (upper === "00000000000000000000000001000000") return true;
  // IPv4-mapped (::ffff:a.b.c.d): third word 0000FFFF in little-endian is "FFFF0000".
  return upper.startsWith("0000000000000000FFFF0000") && upper.slice(30, 32) === "7F";
}

/** Listening sockets of one table's text (the header line is skipped). */
export function parseListeningSockets(text: string): ListeningSocket[] {
  const out: ListeningSocket[] = [];
  for (const line of text.split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || f[3] !== LISTEN) continue;
    const [addr, portHex] = (f[1] ?? "").split(":");
    const inode = Number(f[9]);
    if (!addr || !portHex || !Number.isInteger(inode) || inode <= 0) continue;
    out.push({ inode, port: Number.parseInt(portHex, 16), loopback: isLoopbackHex(addr) });
  }
  return out;
}

/** Every listening TCP socket of this network namespace (IPv4 and IPv6). */
export function readListeningSockets(procRoot = "/proc"): ListeningSocket[] {
  const out: ListeningSocket[] = [];
  for (const table of ["net/tcp", "net/tcp6"]) {
    try {
      out.push(...parseListeningSockets(readFileSync(join(procRoot, table), "latin1")));
    } catch {
      // tcp6 is absent when IPv6 is disabled.
    }
  }
  return out;
}

/** Numeric entries of /proc: the pids. */
export function listPids(procRoot = "/proc"): number[] {
  return readdirSync(procRoot)
    .filter((e) => e.charCodeAt(0) >= 48 && e.charCodeAt(0) <= 57)
    .map(Number)
    .sort((a, b) => a - b);
}

export interface SocketOwners {
  /** inode -> lowest pid holding it. */
  owners: Map<number, number>;
  /** Processes whose descriptors could not be read (another user's, without the capability). */
  unreadable: number;
}

/**
 * Which process holds each of `inodes`: readlink of every /proc/<pid>/fd/* ("socket:[<inode>]").
 * Reading another user's descriptors needs root (CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH); those
 * processes are counted in `unreadable`.
 */
export function findSocketOwners(inodes: ReadonlySet<number>, procRoot = "/proc"): SocketOwners {
  const owners = new Map<number, number>();
  let unreadable = 0;
  for (const pid of listPids(procRoot)) {
    if (owners.size === inodes.size) break;
    const dir = join(procRoot, String(pid), "fd");
    let fds: string[];
    try {
      fds = readdirSync(dir);
    } catch {
      unreadable++;
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(join(dir, fd));
      } catch {
        continue;
      }
      if (!target.startsWith("socket:[")) continue;
      const inode = Number(target.slice(8, -1));
      if (inodes.has(inode) && !owners.has(inode)) owners.set(inode, pid);
    }
  }
  return { owners, unreadable };
}

/** The socket inodes and regular files a process holds open; null when its descriptors are unreadable. */
export function readOpenFiles(pid: number, procRoot = "/proc"): { sockets: Set<number>; files: string[] } | null {
  const dir = join(procRoot, String(pid), "fd");
  let fds: string[];
  try {
    fds = readdirSync(dir);
  } catch {
    return null;
  }
  const sockets = new Set<number>();
  const files: string[] = [];
  for (const fd of fds) {
    try {
      const target = readlinkSync(join(dir, fd));
      if (target.startsWith("socket:[")) sockets.add(Number(target.slice(8, -1)));
      else if (target.startsWith("/") && !target.endsWith(" (deleted)")) files.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return { sockets, files };
}
