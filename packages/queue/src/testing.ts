/** Test support shared by the ingest and worker suites: a private redis-server, key prefixes, cleanup. */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, waitFor } from "@rpcpulse/config/testing";
import { isClusterConnection, type RedisConnection } from "./connection.js";

export const SHARED_REDIS_URL = "redis://127.0.0.1:6379";
/** Cluster state settles over gossip; redis-cli may fail while a node restarts. */
const CLUSTER_WAIT = { timeoutMs: 20_000, intervalMs: 100, retryErrors: true };

/** A fresh key prefix per test so tests never share queue state. */
export function uniquePrefix(): string {
  return `rpcpulse_t_${randomBytes(6).toString("hex")}`;
}

/** Delete every key under `prefix` (cleanup after a test); on a cluster, every master is scanned. */
export async function deleteKeys(connection: RedisConnection, prefix: string): Promise<void> {
  const cluster = isClusterConnection(connection);
  const servers = cluster ? connection.nodes("master") : [connection];
  for (const server of servers) {
    for await (const keys of server.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length === 0) continue;
      // On a cluster, keys of one scan page may live on different slots: one command per key.
      if (cluster) for (const key of keys) await connection.unlink(key);
      else await connection.unlink(...keys);
    }
  }
}

/** Also here for the ingest and worker suites, which take their Redis helpers from this entry. */
export { freePort };

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

/**
 * A private Redis Cluster on loopback: `masters` masters with one replica each (so a master can be
 * failed over), each redis-server in its own temp dir with nothing kept on disk, joined by
 * `redis-cli --cluster create --cluster-replicas 1`. For tests of queues on a cluster.
 */
export class PrivateRedisCluster {
  readonly dir = mkdtempSync(path.join(tmpdir(), "rpcpulse-rcluster-"));
  readonly ports: number[] = [];
  private readonly children = new Map<number, ChildProcess>();
  constructor(readonly masters = 3) {}

  get nodes(): Array<{ host: string; port: number }> {
    return this.ports.map((port) => ({ host: "127.0.0.1", port }));
  }

  /** REDIS_CLUSTER_NODES form: host:port,host:port... */
  get nodesEnv(): string {
    return this.ports.map((p) => `127.0.0.1:${p}`).join(",");
  }

  async start(): Promise<void> {
    for (let i = 0; i < this.masters * 2; i++) this.ports.push(await freePort());
    await Promise.all(this.ports.map((port) => this.startNode(port)));
    await runCli([
      "--cluster",
      "create",
      ...this.ports.map((p) => `127.0.0.1:${p}`),
      "--cluster-replicas",
      "1",
      "--cluster-yes",
    ]);
    await waitFor(
      "the cluster to be ok on every node",
      async () => {
        for (const port of this.ports) {
          if (!(await runCli(["-p", String(port), "CLUSTER", "INFO"])).includes("cluster_state:ok")) return false;
        }
        return true;
      },
      CLUSTER_WAIT,
    );
  }

  private async startNode(port: number): Promise<void> {
    const dir = path.join(this.dir, String(port));
    mkdirSync(dir);
    const child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        "nodes.conf",
        "--cluster-node-timeout",
        "2000",
        "--save",
        "",
        "--appendonly",
        "no",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    this.children.set(port, child);
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server ${port} did not start:\n${output}`)), 10_000);
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server ${port} exited with ${code}:\n${output}`));
      });
    });
    child.stdout?.resume();
  }

  /** The node (port) that is master of `key`'s slot now, and its replica. */
  async ownerOf(key: string): Promise<{ master: number; replica: number | undefined }> {
    const port0 = this.ports[0] ?? 0;
    const slot = Number((await runCli(["-p", String(port0), "CLUSTER", "KEYSLOT", key])).trim());
    const lines = (await runCli(["-p", String(port0), "CLUSTER", "NODES"])).trim().split("\n");
    const rows = lines.map((line) => {
      const [id = "", address = "", flags = "", masterId = "", , , , , ...slots] = line.split(" ");
      return { id, port: Number(address.split("@")[0]?.split(":")[1]), flags, masterId, slots };
    });
    const owner = rows.find(
      (r) =>
        r.flags.includes("master") &&
        r.slots.some((range) => {
          const [from, to = from] = range.split("-").map(Number);
          return from !== undefined && to !== undefined && slot >= from && slot <= to;
        }),
    );
    if (!owner) throw new Error(`no master owns slot ${slot}`);
    const replica = rows.find((r) => r.masterId === owner.id && r.flags.includes("slave"));
    return { master: owner.port, replica: replica?.port };
  }

  /** CLUSTER FAILOVER on `replicaPort` (its master hands over without losing writes); waits for the roles to swap. */
  async failover(replicaPort: number): Promise<void> {
    await runCli(["-p", String(replicaPort), "CLUSTER", "FAILOVER"]);
    await waitFor(
      `${replicaPort} to become master`,
      async () => (await runCli(["-p", String(replicaPort), "ROLE"])).startsWith("master"),
      CLUSTER_WAIT,
    );
    await waitFor(
      "the cluster to be ok after the failover",
      async () => (await runCli(["-p", String(replicaPort), "CLUSTER", "INFO"])).includes("cluster_state:ok"),
      CLUSTER_WAIT,
    );
  }

  /** Kill -9 one node (a crash). */
  async kill(port: number): Promise<void> {
    const child = this.children.get(port);
    if (!child || child.exitCode !== null) return;
    child.kill("SIGKILL");
    await once(child, "exit");
  }

  async destroy(): Promise<void> {
    await Promise.all(
      [...this.children.values()].map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill("SIGKILL");
        await once(child, "exit");
      }),
    );
    this.children.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function runCli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("redis-cli", args, { timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`redis-cli ${args.join(" ")}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}
