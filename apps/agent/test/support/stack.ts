import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createTestDatabase,
  createTestNode,
  createTestOrg,
  freePort,
  type TestDatabase,
  waitFor,
} from "@rpcpulse/db/testing";
import { createRedisConnection, type Redis } from "@rpcpulse/queue";
import { createAgentToken } from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";
import { startSimnet, type Simnet } from "@rpcpulse/simnet";
import { REPO_ROOT, spawnChild, stopChild, waitForLog, type Child } from "./processes.js";
import { startRecordingProxy, type RecordingProxy } from "./proxy.js";

/**
 * One isolated RPC Pulse stack per test: its own database and Redis key prefix, a simnet Hive node
 * as the chain, the real ingest API and worker as child processes (tsx, their own entry points),
 * a recording proxy in front of the ingest, and the real agent (src/cli.ts run) as a child process
 * with its own state dir. Nothing of ours is mocked.
 */
export const SHARED_REDIS_URL = "redis://127.0.0.1:6379";
const AGENT_CLI = path.join(REPO_ROOT, "apps/agent/src/cli.ts");
const CLOCK_SHIFT = path.join(REPO_ROOT, "apps/agent/test/support/clock-shift.mjs");
const SPOOL_FILE = /^(\d{16})\.json\.gz$/;

export interface Stack {
  db: TestDatabase;
  nodeId: string;
  token: string;
  /** The token's secret part (what must never appear in clear). */
  secret: string;
  prefix: string;
  simnet: Simnet;
  ingestPort: number;
  ingest: Child | undefined;
  /** Every ingest process started in this stack (restarts included). */
  ingests: Child[];
  worker: Child | undefined;
  proxy: RecordingProxy;
  stateDir: string;
  spoolDir: string;
  agent: Child | undefined;
  /** Every agent process started in this stack (restarts included). */
  agents: Child[];
  startIngest(): Promise<void>;
  stopIngest(): Promise<void>;
  startAgent(options?: { clockShiftMs?: number; extraArgs?: string[] }): Promise<Child>;
  /** Spool files present now (seq numbers), i.e. batches the agent has fsync'd and not yet delivered. */
  spooled(): number[];
  /** The agent's persisted batch sequence (<state-dir>/batch-seq). */
  persistedSeq(): number;
  /** (batch_seq, time) of every stored sample of the node. */
  stored(): Promise<{ seq: number; timeMs: number }[]>;
  dispose(): Promise<void>;
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
    if (keys.length) await redis.unlink(...keys);
  }
}

export async function startStack(label: string): Promise<Stack> {
  const db = await createTestDatabase();
  db.pool.on("error", () => undefined);
  const prefix = `rpcpulse_t_${randomBytes(6).toString("hex")}`;
  const stateDir = mkdtempSync(path.join(tmpdir(), `rpcpulse-rel-${label}-`));
  const cleanups: (() => Promise<void>)[] = [];
  const stack = {
    db,
    prefix,
    stateDir,
    spoolDir: path.join(stateDir, "spool"),
    agents: [] as Child[],
    ingests: [] as Child[],
  } as unknown as Stack;
  cleanups.push(async () => db.drop());
  cleanups.push(async () => rmSync(stateDir, { recursive: true, force: true }));
  cleanups.push(async () => {
    const redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    try {
      await deleteKeys(redis, prefix);
    } finally {
      redis.disconnect();
    }
  });
  stack.dispose = async () => {
    const errors: unknown[] = [];
    for (const fn of cleanups.reverse()) await fn().catch((e: unknown) => errors.push(e));
    if (errors.length) throw errors[0];
  };
  try {
    const simnet = await startSimnet({ nodes: [{ name: "hive", family: "hive", network: "hive" }] });
    stack.simnet = simnet;
    cleanups.push(() => simnet.close());

    const org = await createTestOrg(db);
    const node = await createTestNode(db, {
      organizationId: org.id,
      name: `rel-${label}`,
      localRpcUrl: simnet.node("hive").url,
    });
    stack.nodeId = node.id;
    const ctx: ServiceContext = { userId: "u_test", organizationId: org.id, organizationSlug: org.slug, role: "owner" };
    const issued = await createAgentToken({ sql: db.pool }, ctx, { nodeId: stack.nodeId });
    stack.token = issued.token;
    stack.secret = issued.token.split("_").slice(2).join("_");
    const tokenFile = path.join(stateDir, "token");
    writeFileSync(tokenFile, `${issued.token}\n`, { mode: 0o600 });

    const common = { DATABASE_URL: db.url, REDIS_URL: SHARED_REDIS_URL, QUEUE_PREFIX: prefix, LOG_LEVEL: "debug" };
    stack.ingestPort = await freePort();
    stack.startIngest = async () => {
      const child = spawnChild(`ingest[${label}]`, ["--import", "tsx", "src/main.ts"], {
        cwd: path.join(REPO_ROOT, "apps/ingest"),
        env: { ...common, INGEST_HOST: "127.0.0.1", INGEST_PORT: String(stack.ingestPort) },
      });
      stack.ingest = child;
      stack.ingests.push(child);
      await waitForLog(child, "ingest listening", (l) => l.msg === "ingest listening", 60_000);
    };
    stack.stopIngest = async () => stopChild(stack.ingest);
    cleanups.push(async () => {
      for (const i of stack.ingests) await stopChild(i, "SIGKILL");
    });
    await stack.startIngest();

    const worker = spawnChild(`worker[${label}]`, ["--import", "tsx", "src/main.ts"], {
      cwd: path.join(REPO_ROOT, "apps/worker"),
      env: {
        ...common,
        WORKER_ID: `rel-${prefix}`,
        WORKER_HEALTH_HOST: "127.0.0.1",
        WORKER_HEALTH_PORT: "0",
        WORKER_REGISTER_SCHEDULES: "false",
        WORKER_MAINTENANCE_ENABLED: "false",
        WORKER_HEARTBEAT_INTERVAL_MS: "60000",
      },
    });
    stack.worker = worker;
    cleanups.push(async () => stopChild(worker, "SIGKILL"));

    const proxy = await startRecordingProxy(stack.ingestPort);
    stack.proxy = proxy;
    cleanups.push(() => proxy.close());

    stack.startAgent = async (options = {}) => {
      const shift = options.clockShiftMs ?? 0;
      const child = spawnChild(
        `agent[${label}#${stack.agents.length + 1}]`,
        [
          ...(shift ? ["--import", CLOCK_SHIFT] : []),
          "--import",
          "tsx",
          AGENT_CLI,
          "run",
          "--family",
          "hive",
          "--rpc-url",
          simnet.node("hive").url,
          "--interval",
          "1s",
          "--state-dir",
          stateDir,
          "--ingest-url",
          proxy.url,
          "--token-file",
          tokenFile,
          "--log-level",
          "debug",
          ...(options.extraArgs ?? []),
        ],
        { cwd: path.join(REPO_ROOT, "apps/agent"), env: shift ? { RPCPULSE_TEST_CLOCK_SHIFT_MS: String(shift) } : {} },
      );
      stack.agent = child;
      stack.agents.push(child);
      await waitForLog(child, "agent started", (l) => l.msg === "agent started", 60_000);
      return child;
    };
    cleanups.push(async () => {
      for (const a of stack.agents) await stopChild(a, "SIGKILL");
    });
    stack.spooled = () =>
      existsSync(stack.spoolDir)
        ? readdirSync(stack.spoolDir).flatMap((n) => {
            const m = SPOOL_FILE.exec(n);
            return m ? [Number(m[1])] : [];
          })
        : [];
    stack.persistedSeq = () => {
      const file = path.join(stateDir, "batch-seq");
      return existsSync(file) ? Number.parseInt(readFileSync(file, "utf8").trim(), 10) : 0;
    };
    stack.stored = async () => {
      const { rows } = await db.pool.query<{ seq: string; time: Date }>(
        "SELECT batch_seq AS seq, time FROM node_samples WHERE node_id = $1 ORDER BY time",
        [stack.nodeId],
      );
      return rows.map((r) => ({ seq: Number(r.seq), timeMs: r.time.getTime() }));
    };
    return stack;
  } catch (error) {
    await stack.dispose().catch(() => undefined);
    throw error;
  }
}

/** Wait until the agent's spool is empty, then stop it gracefully; returns what is left spooled. */
export async function drainAndStopAgent(stack: Stack, timeoutMs = 60_000): Promise<number[]> {
  await waitFor("the agent's spool to drain", () => stack.spooled().length === 0, { timeoutMs, intervalMs: 100 });
  await stopChild(stack.agent);
  return stack.spooled();
}

/**
 * Wait until the stored samples of the node reach `n` (bounded; on timeout the caller's exact
 * comparison reports what is missing), then a moment more so late duplicates would show.
 */
export async function waitForStored(stack: Stack, n: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await stack.stored()).length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  await new Promise((r) => setTimeout(r, 1_500));
}

/** No child output of this stack holds the token's secret part. */
export function secretHits(stack: Stack): string[] {
  const children = [...stack.ingests, stack.worker, ...stack.agents].filter((c): c is Child => !!c);
  return children.filter((c) => c.output().includes(stack.secret)).map((c) => c.name);
}
