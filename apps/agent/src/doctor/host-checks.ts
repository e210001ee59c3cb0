import { accessSync, constants, readdirSync, readFileSync, statfsSync } from "node:fs";
import { join } from "node:path";
import { findClosedAncestor, findMountPoint } from "../discover/data-dir.js";
import type { ProcessInfo } from "../discover/process-info.js";
import { readListeningSockets } from "../discover/proc-sockets.js";
import type { ServiceIdentity } from "./unit-settings.js";

export type CheckStatus = "ok" | "warn" | "fail" | "info";

export interface Check {
  id: string;
  status: CheckStatus;
  /** What was found, in one or two sentences (why, when it is not ok). */
  detail: string;
  fix?: string;
}

const DAC_CAPS = ["CAP_DAC_READ_SEARCH", "CAP_DAC_OVERRIDE"];

function errCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** The drop-in that lets the service count another user's open descriptors, as text for the report. */
export function fdsDropIn(instance: string | undefined): string {
  const unit = instance ? `rpcpulse-agent@${instance}` : "rpcpulse-agent";
  return (
    `systemctl edit ${unit}, add "[Service]" with "AmbientCapabilities=CAP_DAC_READ_SEARCH" and ` +
    `"CapabilityBoundingSet=CAP_DAC_READ_SEARCH", then systemctl restart ${unit} ` +
    "(this lets the agent read every file on the host, read-only; the alternative, User=<the node's user> " +
    "with DynamicUser=no, gives it the node's own files)"
  );
}

/** Would the service's user be able to list /proc/<pid>/fd of a process owned by `nodeUid`? */
export function serviceCanListFds(
  id: ServiceIdentity,
  nodeUid: number | null,
  uidOf: (user: string) => number | null,
): boolean | null {
  if (!id.unitPath) return null;
  if (id.capabilities.some((c) => DAC_CAPS.includes(c))) return true;
  if (id.dynamicUser) return false;
  const uid = id.user ? uidOf(id.user) : 0;
  return uid !== null && uid === nodeUid;
}

/** hidepid on the /proc mount hides other users' processes from everyone but root (and a gid= group). */
export function readHidepid(procRoot = "/proc"): string | null {
  try {
    for (const line of readFileSync(join(procRoot, "self/mountinfo"), "utf8").split("\n")) {
      const f = line.split(" ");
      if (f[4] !== "/proc") continue;
      const m = /(?:^|,)hidepid=([^,\s]+)/.exec(line.split(" - ")[1] ?? "");
      return m && m[1] !== "0" && m[1] !== "off" ? m[1]! : null;
    }
  } catch {
    // no mountinfo: nothing to say
  }
  return null;
}

export function checkSocketTables(rpcPort: number | null, procRoot = "/proc"): Check {
  try {
    readFileSync(join(procRoot, "net/tcp"), "latin1");
  } catch (error) {
    return {
      id: "sockets",
      status: "fail",
      detail: `cannot read ${procRoot}/net/tcp (${errCode(error)}): no TCP states, TIME_WAIT or per-IP counts`,
      fix: "make /proc readable for the agent (ReadOnlyPaths=/proc is enough; do not set ProcSubset=pid)",
    };
  }
  const listening = readListeningSockets(procRoot);
  if (rpcPort !== null && !listening.some((s) => s.port === rpcPort)) {
    return {
      id: "sockets",
      status: "warn",
      detail: `/proc/net/tcp is readable but nothing listens on the RPC port ${rpcPort} here: the node is down, or runs in another network namespace (a container without host networking), whose sockets this agent cannot see`,
      fix: "run the agent in the node's network namespace (for Docker: network_mode: host on both, or the agent in the node container's namespace)",
    };
  }
  return { id: "sockets", status: "ok", detail: `/proc/net/tcp{,6} readable; ${listening.length} listening sockets` };
}

export function checkProcessVisibility(id: ServiceIdentity, procRoot = "/proc"): Check {
  const hidepid = readHidepid(procRoot);
  if (hidepid)
    return {
      id: "proc-visibility",
      status: "warn",
      detail: `/proc is mounted with hidepid=${hidepid}: a non-root agent cannot see the node's process`,
      fix: "remount /proc with gid=<a group> and add that group to the agent (SupplementaryGroups=), or drop hidepid",
    };
  if (id.protectProc === "invisible" || id.protectProc === "noaccess" || id.procSubset === "pid")
    return {
      id: "proc-visibility",
      status: "warn",
      detail: `the unit sets ProtectProc=${id.protectProc} / ProcSubset=${id.procSubset}: the node's /proc entries are hidden from the agent`,
      fix: "remove ProtectProc= and set ProcSubset=all in the unit (the shipped unit does)",
    };
  return { id: "proc-visibility", status: "ok", detail: "other users' /proc/<pid> entries are visible" };
}

/** Open descriptors and limits of the node process: what this process reads, and what the service would. */
export function checkNodeProcess(input: {
  node: ProcessInfo | null;
  how: string;
  service: ServiceIdentity;
  instance: string | undefined;
  uidOf: (user: string) => number | null;
  procRoot?: string;
}): Check[] {
  const procRoot = input.procRoot ?? "/proc";
  const node = input.node;
  if (!node)
    return [
      {
        id: "process",
        status: "warn",
        detail: `node process not found (${input.how}): open files, descriptor limits and node arguments stay empty`,
        fix: 'start the node, or set "processName" (or "pid") in the config; rpcpulse-agent discover (as root) finds it by its RPC port',
      },
    ];
  const who = `${node.comm} (pid ${node.pid}, user ${node.user ?? `uid ${node.uid}`})`;
  const checks: Check[] = [{ id: "process", status: "ok", detail: `${who}, ${input.how}` }];
  let selfFds: string;
  try {
    selfFds = `${readdirSync(join(procRoot, String(node.pid), "fd")).length} open descriptors`;
  } catch (error) {
    selfFds = `cannot list /proc/${node.pid}/fd (${errCode(error)})`;
  }
  const svc = serviceCanListFds(input.service, node.uid, input.uidOf);
  if (svc === false) {
    checks.push({
      id: "fds",
      status: "warn",
      detail:
        `here: ${selfFds}; the service cannot count them: /proc/${node.pid}/fd is readable by its owner only, and the service ` +
        `runs as ${input.service.dynamicUser ? "a transient user (DynamicUser=yes)" : (input.service.user ?? "root")} without CAP_DAC_READ_SEARCH`,
      fix: fdsDropIn(input.instance),
    });
  } else {
    const failed = selfFds.startsWith("cannot");
    checks.push({
      id: "fds",
      status: failed ? "warn" : "ok",
      detail: `${svc === true ? "the service can count them; " : ""}here: ${selfFds}`,
      ...(failed
        ? { fix: `run doctor as root for the full picture; for the agent: ${fdsDropIn(input.instance)}` }
        : {}),
    });
  }
  for (const [id, file, what] of [
    ["limits", "limits", "descriptor limits"],
    ["node-args", "cmdline", "node arguments"],
  ] as const) {
    try {
      accessSync(join(procRoot, String(node.pid), file), constants.R_OK);
      readFileSync(join(procRoot, String(node.pid), file));
      checks.push({
        id,
        status: "ok",
        detail: `/proc/${node.pid}/${file} readable (${what}; world-readable, the service reads it too)`,
      });
    } catch (error) {
      checks.push({
        id,
        status: "warn",
        detail: `cannot read /proc/${node.pid}/${file} (${errCode(error)}): no ${what}`,
        fix: "check hidepid on /proc and ProtectProc= in the unit",
      });
    }
  }
  return checks;
}

export function checkDataDirs(dirs: readonly string[], service: ServiceIdentity, procRoot = "/proc"): Check[] {
  if (dirs.length === 0)
    return [
      {
        id: "data-dirs",
        status: "warn",
        detail: "no data directory configured or discovered: only /dev/shm is reported",
        fix: 'set "dataDirs" in the config (or run rpcpulse-agent discover --write as root)',
      },
    ];
  return [...dirs, "/dev/shm"].map((dir) => {
    try {
      const s = statfsSync(dir);
      const freeGb = Math.round((Number(s.bavail) * Number(s.bsize)) / 1e8) / 10;
      const closed = findClosedAncestor(dir);
      const underHome = /^\/(home|root|run\/user)(\/|$)/.test(dir);
      const hidden = underHome && (service.protectHome === "yes" || service.protectHome === "tmpfs");
      const svcBlocked =
        service.unitPath && !service.capabilities.some((c) => DAC_CAPS.includes(c)) && (closed || hidden);
      if (svcBlocked) {
        const mount = findMountPoint(dir, procRoot);
        return {
          id: "data-dirs",
          status: "warn" as const,
          detail: `${dir}: ${freeGb} GB free here, but the service cannot reach it (${hidden ? `ProtectHome=${service.protectHome}` : `${closed} is closed to other users`})`,
          fix: `put the mount point "${mount}" in dataDirs instead (same filesystem, same figures)`,
        };
      }
      return { id: "data-dirs", status: "ok" as const, detail: `${dir}: ${freeGb} GB free` };
    } catch (error) {
      return {
        id: "data-dirs",
        status: "warn" as const,
        detail: `${dir}: statfs failed (${errCode(error)})`,
        fix: "check the path in dataDirs",
      };
    }
  });
}

export function checkKernelFiles(procRoot = "/proc"): Check[] {
  const conntrack = join(procRoot, "sys/net/netfilter/nf_conntrack_count");
  const checks: Check[] = [];
  try {
    readFileSync(conntrack);
    checks.push({ id: "conntrack", status: "ok", detail: "nf_conntrack_count/max readable" });
  } catch {
    checks.push({
      id: "conntrack",
      status: "info",
      detail: "nf_conntrack is not loaded: the conntrack group is null (nothing to fix)",
    });
  }
  try {
    readFileSync(join(procRoot, "sys/net/ipv4/tcp_fin_timeout"));
    readFileSync(join(procRoot, "sys/fs/file-nr"));
    checks.push({ id: "sysctl", status: "ok", detail: "TCP settings and file-nr readable" });
  } catch (error) {
    checks.push({
      id: "sysctl",
      status: "warn",
      detail: `cannot read /proc/sys (${errCode(error)}): no settings group`,
      fix: "keep /proc/sys readable (ProtectKernelTunables=yes is fine)",
    });
  }
  return checks;
}
