import { execFileSync } from "node:child_process";

/**
 * An independent reading of the socket table through `ss -Htan` (iproute2, netlink sock_diag),
 * reduced to the same aggregates the agent reports. Deliberately written differently from the
 * agent's scanner (text split, string keys) so the two can check each other.
 */
export interface SsAggregate {
  states: Record<string, number>;
  total: number;
  listeningPorts: number[];
  timeWaitInbound: number;
  timeWaitOutbound: number;
  /** ip → [connections (non-TIME_WAIT), established, timeWait] on the public ports. */
  remotes: Map<string, [number, number, number]>;
  /** "ip|port" → [sockets, established, timeWait] for sockets on an ephemeral port that is not listening. */
  dests: Map<string, [number, number, number]>;
}

const STATE_NAMES: Record<string, string> = {
  ESTAB: "established",
  "SYN-SENT": "synSent",
  "SYN-RECV": "synRecv",
  "FIN-WAIT-1": "finWait1",
  "FIN-WAIT-2": "finWait2",
  "TIME-WAIT": "timeWait",
  UNCONN: "close",
  "CLOSE-WAIT": "closeWait",
  "LAST-ACK": "lastAck",
  LISTEN: "listen",
  CLOSING: "closing",
};

export function ssAvailable(): boolean {
  try {
    execFileSync("ss", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** "[::ffff:127.0.0.1]:8080" / "127.0.0.1:80" / "*:22" / "[fe80::1]%eth0:22" → { ip, port }. */
export function splitEndpoint(text: string): { ip: string; port: number } {
  const colon = text.lastIndexOf(":");
  let host = text.slice(0, colon);
  const port = Number(text.slice(colon + 1));
  const pct = host.indexOf("%");
  if (pct >= 0) host = host.slice(0, pct);
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host.toLowerCase().startsWith("::ffff:") && host.includes(".")) host = host.slice(7);
  return { ip: host, port: Number.isFinite(port) ? port : 0 };
}

/**
 * `portRange`: the ephemeral range; a local port outside it is a server's (inbound) even when nothing
 * listens on it any more. ss keeps no memory of ports that listened before, so compare with a fresh
 * scanner.
 */
export function readSs(
  publicPorts: readonly number[] | null,
  portRange: { low: number; high: number } | null = null,
): SsAggregate {
  const text = execFileSync("ss", ["-Htan"], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const rows = text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => l.trim().split(/\s+/));
  const states: Record<string, number> = Object.fromEntries(Object.values(STATE_NAMES).map((k) => [k, 0]));
  const listening = new Set<number>();
  for (const r of rows) if (r[0] === "LISTEN") listening.add(splitEndpoint(r[3]!).port);
  const pub = new Set(publicPorts ?? listening);
  const agg: SsAggregate = {
    states,
    total: 0,
    listeningPorts: [...listening].sort((a, b) => a - b),
    timeWaitInbound: 0,
    timeWaitOutbound: 0,
    remotes: new Map(),
    dests: new Map(),
  };
  for (const r of rows) {
    const name = STATE_NAMES[r[0]!];
    if (!name) throw new Error(`unknown ss state ${r[0]}`);
    states[name]!++;
    agg.total++;
    if (name === "listen") continue;
    const local = splitEndpoint(r[3]!);
    const peer = splitEndpoint(r[4]!);
    const outsideRange = portRange !== null && (local.port < portRange.low || local.port > portRange.high);
    const inbound = listening.has(local.port) || outsideRange;
    if (name === "timeWait") {
      if (inbound) agg.timeWaitInbound++;
      else agg.timeWaitOutbound++;
    }
    if (name === "close") continue;
    if (pub.has(local.port)) {
      const e = agg.remotes.get(peer.ip) ?? [0, 0, 0];
      if (name === "timeWait") e[2]++;
      else {
        e[0]++;
        if (name === "established") e[1]++;
      }
      agg.remotes.set(peer.ip, e);
    }
    if (!inbound) {
      const key = `${peer.ip}|${peer.port}`;
      const e = agg.dests.get(key) ?? [0, 0, 0];
      e[0]++;
      if (name === "established") e[1]++;
      else if (name === "timeWait") e[2]++;
      agg.dests.set(key, e);
    }
  }
  return agg;
}
