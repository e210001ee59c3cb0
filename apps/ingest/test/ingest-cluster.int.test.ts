// INGEST_WORKERS=2: the real entry (src/main.ts) as its own process against real Redis and
// PostgreSQL. Both workers serve the one port, idempotency holds across them (shared Redis),
// a killed worker is replaced, and SIGTERM on the primary drains and stops every worker.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, getQueue, type Redis } from "@rpcpulse/queue";
import { deleteKeys, freePort, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { parseIngestEnv, ingestWorkerCount } from "../src/env.js";
import { gzipBatch, makeAgentBatch } from "./support/agent-batches.js";
import { issueToken, seedNode } from "./support/fleet.js";
import { postBatch } from "./support/http.js";

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("INGEST_WORKERS resolves to a process count", () => {
  it("0 means one per CPU, n means n", () => {
    const env = (value?: string) => parseIngestEnv({ DATABASE_URL: "postgres://x/y", INGEST_WORKERS: value });
    assert.equal(ingestWorkerCount(env(), 2), 2);
    assert.equal(ingestWorkerCount(env("0"), 8), 8);
    assert.equal(ingestWorkerCount(env("1"), 8), 1);
    assert.equal(ingestWorkerCount(env("3"), 1), 3);
    assert.throws(() => env("-1"), /INGEST_WORKERS/);
  });
});

describe("ingest cluster that cannot start", () => {
  it("exits 1 instead of restarting workers forever when the port is taken", async () => {
    const db = await createTestDatabase();
    const blocker = createServer();
    blocker.listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const taken = (blocker.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: APP_DIR,
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: db.url,
          REDIS_URL: SHARED_REDIS_URL,
          QUEUE_PREFIX: uniquePrefix(),
          LOG_LEVEL: "info",
          INGEST_HOST: "127.0.0.1",
          INGEST_PORT: String(taken),
          INGEST_WORKERS: "2",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr!.resume();
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      const [code] = (await once(child, "exit")) as [number | null];
      clearTimeout(timer);
      assert.equal(code, 1, out.slice(-2000));
      assert.match(out, /an ingest worker failed to start/);
    } finally {
      blocker.close();
      await db.drop();
    }
  });
});

describe("ingest cluster (INGEST_WORKERS=2) as a real process", () => {
  let db: TestDatabase;
  let redis: Redis;
  let prefix: string;
  let port: number;
  let primary: ChildProcess;
  const records: { msg?: string; pid?: number; port?: number }[] = [];
  const listeningPids = () => records.filter((r) => r.msg === "ingest listening").map((r) => r.pid as number);

  before(async () => {
    db = await createTestDatabase();
    prefix = uniquePrefix();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    port = await freePort();
    primary = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: APP_DIR,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        LOG_LEVEL: "info",
        LOG_FORMAT: "json",
        INGEST_HOST: "127.0.0.1",
        INGEST_PORT: String(port),
        INGEST_WORKERS: "2",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let pending = "";
    primary.stdout!.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        try {
          records.push(JSON.parse(line) as (typeof records)[number]);
        } catch {
          // not a log record
        }
      }
    });
    primary.stderr!.resume();
    await until("two workers listening", () => (new Set(listeningPids()).size >= 2 ? true : undefined), 60_000);
  });

  after(async () => {
    if (primary.exitCode === null && primary.signalCode === null) {
      primary.kill("SIGKILL");
      await once(primary, "exit");
    }
    for (const pid of listeningPids()) if (isAlive(pid)) process.kill(pid, "SIGKILL");
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("serves from two worker processes on one port, none of them the primary", () => {
    const pids = new Set(listeningPids());
    assert.equal(pids.size, 2);
    assert.ok(!pids.has(primary.pid!));
    assert.ok(records.filter((r) => r.msg === "ingest listening").every((r) => r.port === port));
  });

  it("keeps idempotency across workers: each batch queued once, replays answered duplicate", async () => {
    const node = await seedNode(db);
    const { token } = await issueToken(db, node);
    const bodies = [1, 2, 3, 4].map((seq) => gzipBatch(makeAgentBatch(seq, { samples: 3 })));
    // Fresh connections each time, so requests spread over both workers.
    const first = await Promise.all(bodies.map((body) => postBatch(port, { token, body })));
    assert.deepEqual(
      first.map((r) => r.status),
      [202, 202, 202, 202],
    );
    const replays = await Promise.all([...bodies, ...bodies].map((body) => postBatch(port, { token, body })));
    assert.ok(replays.every((r) => r.status === 200 && r.json.status === "duplicate"));
    assert.equal(await getQueue("ingest", { connection: redis, prefix }).count(), 4);
  });

  it("replaces a worker that dies, and keeps answering meanwhile", async () => {
    const [victim, survivor] = listeningPids();
    process.kill(victim!, "SIGKILL");
    const replacement = await until("a replacement worker", () =>
      listeningPids().find((pid) => pid !== victim && pid !== survivor),
    );
    assert.ok(isAlive(replacement));
    assert.ok(isAlive(survivor!));
    for (let i = 0; i < 4; i++) assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
  });

  it("SIGTERM on the primary stops every worker and exits 0", async () => {
    const workers = listeningPids().filter(isAlive);
    assert.equal(workers.length, 2);
    const exited = once(primary, "exit");
    primary.kill("SIGTERM");
    const [code] = (await exited) as [number | null];
    assert.equal(code, 0);
    assert.deepEqual(workers.filter(isAlive), []);
    assert.ok(records.some((r) => r.msg === "shutting down the ingest workers"));
  });
});
