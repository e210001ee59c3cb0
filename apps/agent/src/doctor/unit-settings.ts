import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** What the systemd unit lets the agent's process read (the settings doctor reasons about). */
export interface ServiceIdentity {
  /** The unit file read, null when none was found (the agent is not run by systemd here). */
  unitPath: string | null;
  dropIns: string[];
  dynamicUser: boolean;
  user: string | null;
  /** Ambient capabilities left after the bounding set. */
  capabilities: string[];
  protectProc: string;
  procSubset: string;
  protectHome: string;
  privateNetwork: boolean;
}

const UNIT_DIRS = [
  "/etc/systemd/system",
  "/run/systemd/system",
  "/usr/local/lib/systemd/system",
  "/lib/systemd/system",
  "/usr/lib/systemd/system",
];

/** [Service] assignments of a unit file's text, in order (continuation lines joined). */
export function parseServiceSection(text: string): [string, string][] {
  const out: [string, string][] = [];
  let section = "";
  for (const raw of text.replace(/\\\n/g, " ").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[")) {
      section = line;
      continue;
    }
    const eq = line.indexOf("=");
    if (section === "[Service]" && eq > 0) out.push([line.slice(0, eq).trim(), line.slice(eq + 1).trim()]);
  }
  return out;
}

/** Fold assignments into the identity (later ones win; an empty list value resets it, "~" inverts). */
export function foldServiceSettings(
  assignments: [string, string][],
  unitPath: string | null,
  dropIns: string[],
): ServiceIdentity {
  let ambient = new Set<string>();
  let bounding: { invert: boolean; caps: Set<string> } | null = null;
  const id: ServiceIdentity = {
    unitPath,
    dropIns,
    dynamicUser: false,
    user: null,
    capabilities: [],
    protectProc: "default",
    procSubset: "all",
    protectHome: "no",
    privateNetwork: false,
  };
  const yes = (v: string): boolean => ["yes", "true", "1", "on"].includes(v.toLowerCase());
  const caps = (v: string): string[] =>
    v
      .split(/\s+/)
      .filter(Boolean)
      .map((c) => c.toUpperCase());
  for (const [key, value] of assignments) {
    if (key === "DynamicUser") id.dynamicUser = yes(value);
    else if (key === "User") id.user = value || null;
    else if (key === "ProtectProc") id.protectProc = value;
    else if (key === "ProcSubset") id.procSubset = value;
    else if (key === "ProtectHome") id.protectHome = yes(value) ? "yes" : value;
    else if (key === "PrivateNetwork") id.privateNetwork = yes(value);
    else if (key === "AmbientCapabilities") {
      if (value === "") ambient = new Set();
      else for (const c of caps(value)) ambient.add(c);
    } else if (key === "CapabilityBoundingSet") {
      if (value === "") bounding = { invert: false, caps: new Set() };
      else {
        const invert = value.startsWith("~");
        const list = caps(invert ? value.slice(1) : value);
        bounding =
          bounding && bounding.invert === invert
            ? { invert, caps: new Set([...bounding.caps, ...list]) }
            : { invert, caps: new Set(list) };
      }
    }
  }
  id.capabilities = [...ambient].filter(
    (c) => !bounding || (bounding.invert ? !bounding.caps.has(c) : bounding.caps.has(c)),
  );
  return id;
}

function listConfs(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(".conf"))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/**
 * The effective settings of rpcpulse-agent@<instance>.service (or `unitPath` when given): the unit
 * file from the first systemd unit directory that has it, then its drop-ins.
 */
export function readServiceIdentity(input: {
  instance?: string | undefined;
  unitPath?: string | undefined;
}): ServiceIdentity {
  const template = "rpcpulse-agent@.service";
  const unitPath =
    input.unitPath ??
    (input.instance
      ? UNIT_DIRS.map((d) => join(d, template)).find((p) => existsSync(p))
      : UNIT_DIRS.map((d) => join(d, "rpcpulse-agent.service")).find((p) => existsSync(p)));
  if (!unitPath) return foldServiceSettings([], null, []);
  const names = input.instance ? [template, `rpcpulse-agent@${input.instance}.service`] : ["rpcpulse-agent.service"];
  const dropIns = input.unitPath ? [] : UNIT_DIRS.flatMap((d) => names.flatMap((n) => listConfs(join(d, `${n}.d`))));
  const assignments = [unitPath, ...dropIns].flatMap((p) => parseServiceSection(readFileSync(p, "utf8")));
  return foldServiceSettings(assignments, unitPath, dropIns);
}

/** One line for the report's header. */
export function describeIdentity(id: ServiceIdentity): string {
  if (!id.unitPath) return "no systemd unit found: checks describe this process only";
  const who = id.dynamicUser ? "a transient user (DynamicUser=yes)" : id.user ? `user ${id.user}` : "root";
  const caps = id.capabilities.length ? id.capabilities.join(" ") : "no capabilities";
  return `the service (${id.unitPath}${id.dropIns.length ? ` + ${id.dropIns.length} drop-in(s)` : ""}) runs as ${who} with ${caps}`;
}
