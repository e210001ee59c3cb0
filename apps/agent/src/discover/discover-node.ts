import { basename } from "node:path";
import type { ApiFamily } from "@rpcpulse/domain";
import { findClosedAncestor, findDataDirs, findMountPoint, type FoundDir } from "./data-dir.js";
import { countProcessesNamed, findProcesses, readPasswd, readProcessInfo, type ProcessInfo } from "./process-info.js";
import { findSocketOwners, readListeningSockets, readOpenFiles } from "./proc-sockets.js";

/** Client binaries per family, for finding the node when its sockets cannot be attributed. */
export const CLIENT_NAMES: Record<ApiFamily, readonly string[]> = {
  hive: ["hived", "steemd"],
  ethereum: ["geth", "erigon", "reth", "nethermind", "Nethermind.Runner", "besu", "bor", "op-geth", "op-reth"],
  substrate: ["polkadot", "polkadot-parachain", "substrate", "astar-collator", "moonbeam"],
  sidecar: [],
};

const SIDECAR_MARKERS = ["substrate-api-sidecar", "@substrate/api-sidecar"];

export interface Discovery {
  family: ApiFamily;
  rpcPort: number;
  /** False when the RPC URL names another host: nothing here to discover. */
  local: boolean;
  /** The node process, and how it was found. */
  process: (Pick<ProcessInfo, "pid" | "comm" | "uid" | "user"> & { by: "rpc-port" | "client-name" }) | null;
  /** What to put in the config: a name that matches that process alone, else its pid (valid until it restarts). */
  selector: { name: string } | { pid: number } | null;
  dataDirs: FoundDir[];
  /** Ports the node listens on beyond loopback (per-IP counts); null when its sockets are unreadable. */
  publicPorts: number[] | null;
  /** Plain-language notes: what could not be found and why. */
  notes: string[];
}

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1", "0.0.0.0", "[::]"]);

function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

function byClientName(family: ApiFamily, info: ProcessInfo): boolean {
  if (family === "sidecar") return info.argv.some((a) => SIDECAR_MARKERS.some((m) => a.includes(m)));
  const names = CLIENT_NAMES[family];
  return names.some((n) => info.comm === n.slice(0, 15) || basename(info.argv[0] ?? "") === n);
}

/**
 * Find the node process of a family (the one listening on the RPC port: /proc/net/tcp inode ->
 * /proc/<pid>/fd), its data directories and its public ports. Root (the installer, `discover`)
 * sees everything; an unprivileged agent falls back to the client's name and reports what it
 * could not read in `notes`.
 */
export function discoverNode(input: { family: ApiFamily; rpcUrl: URL; procRoot?: string }): Discovery {
  const procRoot = input.procRoot ?? "/proc";
  const rpcPort = portOf(input.rpcUrl);
  const result: Discovery = {
    family: input.family,
    rpcPort,
    local: LOCAL_HOSTS.has(input.rpcUrl.hostname),
    process: null,
    selector: null,
    dataDirs: [],
    publicPorts: null,
    notes: [],
  };
  if (!result.local) {
    result.notes.push(`the RPC URL names another host (${input.rpcUrl.hostname}): nothing to discover on this one`);
    return result;
  }
  const listening = readListeningSockets(procRoot);
  const onRpcPort = listening.filter((s) => s.port === rpcPort);
  if (onRpcPort.length === 0) {
    result.notes.push(`nothing listens on port ${rpcPort} in this network namespace: is the node running?`);
  }
  let info: ProcessInfo | null = null;
  const passwd = readPasswd();
  if (onRpcPort.length > 0) {
    const { owners, unreadable } = findSocketOwners(new Set(onRpcPort.map((s) => s.inode)), procRoot);
    const pid = [...owners.values()].sort((a, b) => a - b)[0];
    if (pid !== undefined) {
      info = readProcessInfo(pid, procRoot, passwd);
      if (info) result.process = { pid, comm: info.comm, uid: info.uid, user: info.user, by: "rpc-port" };
    } else if (unreadable > 0) {
      result.notes.push(
        `port ${rpcPort} is open but its owner is among ${unreadable} processes whose descriptors this user cannot read (run as root to attribute it)`,
      );
    }
  }
  if (!info) {
    const candidates = findProcesses((p) => byClientName(input.family, p), procRoot);
    if (candidates.length === 1) {
      info = candidates[0]!;
      result.process = { pid: info.pid, comm: info.comm, uid: info.uid, user: info.user, by: "client-name" };
    } else if (candidates.length > 1) {
      result.notes.push(
        `${candidates.length} ${input.family} client processes (${candidates.map((c) => `${c.comm}[${c.pid}]`).join(", ")}): set processName or pid in the config`,
      );
    } else if (onRpcPort.length > 0) {
      result.notes.push(`no known ${input.family} client process found by name`);
    }
  }
  if (!info) return result;

  const name = info.comm;
  result.selector = name && countProcessesNamed(name, procRoot) === 1 ? { name } : { pid: info.pid };
  if ("pid" in result.selector) {
    result.notes.push(
      `"${name}" also names other processes: the config gets pid ${info.pid} (re-run discovery after the node restarts, or set processName)`,
    );
  }
  const open = readOpenFiles(info.pid, procRoot);
  if (open) {
    const ports = listening.filter((s) => open.sockets.has(s.inode) && !s.loopback).map((s) => s.port);
    result.publicPorts = [...new Set(ports)].sort((a, b) => a - b);
    if (result.publicPorts.length === 0) {
      result.publicPorts = null;
      result.notes.push("the node listens on loopback only: per-IP counts keep the default (all listening ports)");
    }
  } else {
    result.notes.push(
      `cannot read /proc/${info.pid}/fd (the node runs as ${info.user ?? `uid ${info.uid}`}): public ports and open files unknown`,
    );
  }
  for (const dir of findDataDirs(input.family, info, open?.files ?? null)) {
    const closed = findClosedAncestor(dir.path);
    if (closed) {
      const mount = findMountPoint(dir.path, procRoot);
      result.notes.push(
        `${dir.path} is inside ${closed}, which other users cannot enter: the agent's own user watches its filesystem at ${mount} instead (same figures)`,
      );
      if (!result.dataDirs.some((d) => d.path === mount))
        result.dataDirs.push({ path: mount, source: `mount point of ${dir.path} (${dir.source})` });
    } else {
      result.dataDirs.push(dir);
    }
  }
  if (result.dataDirs.length === 0 && input.family !== "sidecar") result.notes.push("no data directory found");
  return result;
}
