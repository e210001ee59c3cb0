/** Test support shared by the ingest and worker suites: a private redis-server, key prefixes, cleanup. */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Redis } from "./connection.js";

export const SHARED_REDIS_URL = "redis://127.0.0.1:6379";

/** A fresh key prefix per test so tests never share queue state. */
export function uniquePrefix(): string {
  return `rpcpulse_t_${randomBytes(6).toString("hex")}`;
}

/** Delete every key under `prefix` (cleanup after a test). */
export async function deleteKeys(connection: Redis, prefix: string): Promise<void> {
  for await (const keys of connection.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
    if (keys.length) await connection.unlink(...keys);
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * A private redis-server on a free loopback port with AOF in a temp dir, so a test can stop and
 * restart Redis without touching the machine's shared instance.
 */
export class PrivateRedis {
  readonly dir = mkdtempSync(path.join(tmpdir(), "rpcpulse-redis-"));
  private child: ChildProcess | undefined;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      "redis-server",
      [
        "--port",
        String(this.port),
        "--bind",
        "127.0.0.1",
        "--dir",
        this.dir,
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    this.child = child;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
    child.stdout?.resume();
  }

  /** SIGTERM our own redis-server (it writes its AOF) and wait for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    child.kill("SIGTERM");
    await once(child, "exit");
    this.child = undefined;
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
