/**
 * Scenario runner: executed INSIDE a fresh network namespace (`unshare -n`) by
 * scenarios.int.test.ts, so the loopback traffic it makes and the sockets the agent reads belong
 * to this scenario only. It brings `lo` up, starts simnet nodes, makes real TCP traffic, spawns
 * the real agent CLI (`collect --interval 1s`), and prints one JSON line:
 * { samples: AgentSample[], refHeads: {time, head}[], ports }.
 *
 * Usage: node --import tsx runner.ts '<json {scenario, fault, samples}>'
 */
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startSimnet } from "@rpcpulse/simnet";
import { startChurn, startCloseWaitServer, startIdleConnections, startSlowAcceptor } from "./traffic.js";

export type ScenarioName =
  "flood" | "flood-local" | "churn" | "close-wait" | "lagging" | "lagging-hive" | "stalled-hive" | "listen-overflow";
export interface ScenarioSpec {
  scenario: ScenarioName;
  fault: boolean;
  samples: number;
}
export const PORTS = { node: 45201, reference: 45202, app: 45103 } as const;
/**
 * Client addresses of the flood scenarios: 198.18.0.0/24 (RFC 2544 benchmarking range) on `lo`
 * inside the namespace, so they are local to the kernel but not loopback to the advisor, which
 * treats 127.0.0.0/8 as a local proxy and never limits it.
 */
export const CLIENT_NET = "198.18.0";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const AGENT_CLI = `${REPO}apps/agent/src/cli.ts`;

async function collect(args: string[], samples: number, onSample: () => void): Promise<unknown[]> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", AGENT_CLI, "collect", "--interval", "1s", "--top-n", "50", "--log-level", "silent", ...args],
    {
      cwd: REPO,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const out: unknown[] = [];
  const lines = createInterface({ input: child.stdout });
  try {
    for await (const line of lines) {
      if (!line.trim()) continue;
      out.push(JSON.parse(line));
      onSample();
      if (out.length >= samples) break;
    }
  } finally {
    child.kill("SIGTERM");
  }
  return out;
}

async function main(spec: ScenarioSpec): Promise<void> {
  const up = spawnSync("ip", ["link", "set", "lo", "up"], { encoding: "utf8" });
  if (up.status !== 0) throw new Error(`ip link set lo up: ${up.stderr || up.error} (Debian package iproute2)`);
  const clientNet = spawnSync("ip", ["addr", "add", `${CLIENT_NET}.1/24`, "dev", "lo"], { encoding: "utf8" });
  if (clientNet.status !== 0) throw new Error(`ip addr add ${CLIENT_NET}.1/24 dev lo: ${clientNet.stderr}`);
  const hive = spec.scenario === "lagging-hive" || spec.scenario === "stalled-hive";
  const stalled = spec.scenario === "stalled-hive" && spec.fault;
  const lagging = (spec.scenario === "lagging" || hive) && spec.fault;
  const family = hive ? "hive" : "ethereum";
  const network = hive ? "hive" : "ethereum-mainnet";
  const simnet = await startSimnet({
    seed: "advisor-scenarios",
    nodes: [
      {
        name: "node",
        family,
        network,
        port: PORTS.node,
        lagBlocks: lagging ? 30 : 0,
        peers: lagging ? 2 : 25,
        // The head freezes where it starts: head number constant, head age growing with the clock.
        ...(stalled ? { stall: { afterBlocks: 0 } } : {}),
        websocket: false,
      },
      { name: "reference", family, network, port: PORTS.reference, websocket: false },
    ],
  });
  const reference = simnet.node("reference");
  const refHeads: { time: string; head: number }[] = [];
  const stops: (() => Promise<void>)[] = [];
  let agentPorts: number[] = [PORTS.node];
  try {
    if (spec.scenario === "flood" || spec.scenario === "flood-local") {
      // 20 ordinary clients with 1-3 connections each, plus (fault) one address holding 300:
      // a client address (flood) or a loopback one, as a local reverse proxy has (flood-local).
      const clients = Array.from({ length: 20 }, (_, k) => ({ from: `${CLIENT_NET}.${10 + k}`, count: 1 + (k % 3) }));
      if (spec.fault) clients.push({ from: spec.scenario === "flood" ? `${CLIENT_NET}.77` : "127.0.0.77", count: 300 });
      stops.push(await startIdleConnections(PORTS.node, clients));
    }
    if (spec.scenario === "churn" && spec.fault) {
      // Connect and close first, as a proxy without upstream keepalive does: TIME_WAIT lands here.
      stops.push(await startChurn(PORTS.node, { burst: 1500, perSecond: 100 }));
    }
    if (spec.scenario === "listen-overflow") {
      stops.push(await startSlowAcceptor(PORTS.app, { slow: spec.fault, clientsPerSecond: 40 }));
      agentPorts = [PORTS.node, PORTS.app];
    }
    if (spec.scenario === "close-wait") {
      stops.push(await startCloseWaitServer(PORTS.app, { leak: spec.fault, perSecond: 20, initial: 20 }));
      agentPorts = [PORTS.node, PORTS.app];
    }
    // A stand-in for the node's process, so the agent reads its command-line flags (--pid).
    const nodeProcess = spawn(
      process.execPath,
      ["-e", "setInterval(() => {}, 1e6)", "--", "--maxpeers", "10", "--jwt-secret", "never-sent"],
      { stdio: "ignore" },
    );
    stops.push(async () => {
      nodeProcess.kill();
    });
    const rpcUrl = `http://127.0.0.1:${PORTS.node}`;
    const samples = await collect(
      ["--family", family, "--rpc-url", rpcUrl, "--ports", agentPorts.join(","), "--pid", String(nodeProcess.pid)],
      spec.samples,
      () => refHeads.push({ time: new Date().toISOString(), head: reference.head() }),
    );
    process.stdout.write(`${JSON.stringify({ samples, refHeads, ports: PORTS })}\n`);
  } finally {
    for (const stop of stops) await stop();
    await simnet.close();
  }
}

main(JSON.parse(process.argv[2] ?? "{}") as ScenarioSpec).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `scenario runner: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
