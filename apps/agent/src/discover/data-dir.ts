import { readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import type { ApiFamily } from "@rpcpulse/domain";
import type { ProcessInfo } from "./process-info.js";

/** Command-line options that name the data directory, per family (first match wins). */
export const DATA_DIR_FLAGS: Record<ApiFamily, readonly string[]> = {
  // hived/steemd; --shared-file-dir holds shared_memory.bin (often its own disk or /dev/shm).
  hive: ["--data-dir", "-d", "--shared-file-dir"],
  // geth, erigon, reth, nethermind (--datadir / -dd), besu (--data-path).
  ethereum: ["--datadir", "--data-dir", "-dd", "--data-path"],
  // polkadot and substrate-based nodes.
  substrate: ["--base-path", "-d"],
  // The sidecar keeps no chain data.
  sidecar: [],
};

/** Where clients keep their data when no option says otherwise (relative to the process user's home). */
const HOME_DEFAULTS: Record<string, string> = {
  geth: ".ethereum",
  erigon: ".local/share/erigon",
  reth: ".local/share/reth",
  polkadot: ".local/share/polkadot",
};

export interface FoundDir {
  path: string;
  /** How it was found: an option on the command line, the client's default, or the open files. */
  source: string;
}

/** Values of `flags` in argv: "--x value", "--x=value". */
export function readFlagValues(argv: readonly string[], flags: readonly string[]): { flag: string; value: string }[] {
  const out: { flag: string; value: string }[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    for (const flag of flags) {
      if (arg === flag && i + 1 < argv.length && !argv[i + 1]!.startsWith("-")) out.push({ flag, value: argv[i + 1]! });
      else if (arg.startsWith(`${flag}=`)) out.push({ flag, value: arg.slice(flag.length + 1) });
    }
  }
  return out;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const SYSTEM_PREFIXES = ["/proc/", "/sys/", "/dev/", "/usr/", "/lib", "/etc/", "/run/", "/tmp/", "/var/log/", "/bin/"];

/**
 * The directory holding most of the node's data, from the regular files it keeps open: their
 * deepest common directory, or the directory of the first file when they share only "/".
 */
export function dataDirFromOpenFiles(files: readonly string[]): string | null {
  const data = files.filter((f) => !SYSTEM_PREFIXES.some((p) => f.startsWith(p)));
  if (data.length === 0) return null;
  let common = dirname(data[0]!).split(sep);
  for (const f of data.slice(1)) {
    const parts = dirname(f).split(sep);
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  const joined = common.join(sep);
  return joined.split(sep).filter(Boolean).length >= 1 ? joined : dirname(data[0]!);
}

/** Data directories of a node process, per family: options first, then the client's default, then open files. */
export function findDataDirs(family: ApiFamily, info: ProcessInfo, openFiles: readonly string[] | null): FoundDir[] {
  const found: FoundDir[] = [];
  if (family === "sidecar") return found;
  const add = (path: string, source: string): void => {
    if (isDir(path) && !found.some((d) => d.path === path)) found.push({ path, source });
  };
  for (const { flag, value } of readFlagValues(info.argv, DATA_DIR_FLAGS[family])) {
    const absolute = isAbsolute(value) ? value : info.cwd ? resolve(info.cwd, value) : null;
    if (absolute) add(absolute, `${flag} on its command line`);
  }
  if (found.length === 0 && info.home) {
    const name = basename(info.argv[0] ?? info.comm);
    const rel =
      HOME_DEFAULTS[name] ?? HOME_DEFAULTS[info.comm] ?? (family === "substrate" ? `.local/share/${name}` : null);
    if (rel) add(join(info.home, rel), `${name}'s default under ${info.home}`);
  }
  if (found.length === 0 && openFiles) {
    const dir = dataDirFromOpenFiles(openFiles);
    if (dir) add(dir, "the files it keeps open");
  }
  return found;
}

function unescapeMount(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(Number.parseInt(oct, 8)));
}

/** The mount point holding `path` (longest prefix in /proc/self/mountinfo). */
export function findMountPoint(path: string, procRoot = "/proc"): string {
  let best = "/";
  let text = "";
  try {
    text = readFileSync(join(procRoot, "self/mountinfo"), "utf8");
  } catch {
    return best;
  }
  for (const line of text.split("\n")) {
    const mount = line.split(" ")[4];
    if (!mount) continue;
    const mp = unescapeMount(mount);
    const inside = mp === "/" || path === mp || path.startsWith(`${mp}/`);
    if (inside && mp.length > best.length) best = mp;
  }
  return best;
}

/**
 * The first ancestor of `path` that other users cannot search (no o+x), or null when every one can:
 * then an agent running as its own user (DynamicUser) can statfs the path.
 */
export function findClosedAncestor(path: string): string | null {
  let dir = dirname(path);
  for (;;) {
    try {
      if ((statSync(dir).mode & 0o001) === 0) return dir;
    } catch {
      return dir;
    }
    if (dir === "/" || dir === ".") return null;
    dir = dirname(dir);
  }
}
