// Real Ethereum nodes for truth tests: Hardhat 2 (`hardhat node`, chain id 31337) on loopback.
// Blocks are mined only on demand (hardhat_mine), so two nodes mined apart have an exact, known lag.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@rpcpulse/config/testing";

const here = path.dirname(fileURLToPath(import.meta.url));
const configDir = path.resolve(here, "../fixtures/hardhat");
const hardhatBin = path.resolve(here, "../../../../node_modules/.bin/hardhat");

export interface HardhatNode {
  url: string;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  head(): Promise<number>;
  mine(blocks: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startHardhatNode(): Promise<HardhatNode> {
  const port = await freePort();
  const child: ChildProcess = spawn(hardhatBin, ["node", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: configDir,
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  let id = 0;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited: ${log.slice(-2000)}`);
    try {
      await rpc("eth_blockNumber");
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`hardhat node did not answer on ${url}: ${log.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    url,
    rpc,
    head: async () => Number.parseInt(await rpc<string>("eth_blockNumber"), 16),
    mine: async (blocks) => {
      await rpc("hardhat_mine", [`0x${blocks.toString(16)}`]);
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
